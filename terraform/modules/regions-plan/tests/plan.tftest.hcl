# terraform test for the provider-free plan: runs offline (no provider to download).
# Each run applies the module (it has no resources, so "apply" only evaluates it) and asserts.

variables {
  three_regions = <<-YAML
    regions:
      - {name: us-east-1, georegion: North Virginia, datacenter: us-east-1, exchanges: [NYSE, NASDAQ], cassandra-nodes: 3}
      - {name: ap-southeast-2, georegion: Sydney, datacenter: ap-southeast-2, exchanges: [ASX], cassandra-nodes: 2}
      - {name: eu-west-2, georegion: London, datacenter: eu-west-2, exchanges: [LSE], cassandra-nodes: 1, cassandra-instance-type: t3.large}
    wan:
      default-one-way-latency-ms: 115
  YAML
}

run "the_default_model_of_the_repository" {
  command = apply

  variables {
    regions_yaml = file("../../../infra/regions.yaml")
  }

  assert {
    condition     = keys(output.regions) == ["ap-southeast-2", "us-east-1"] && output.regions["us-east-1"].index == 0
    error_message = "the repository's two regions, us-east-1 first"
  }
  assert {
    condition     = output.regions["us-east-1"].vpc_cidr == "10.64.0.0/16" && output.regions["ap-southeast-2"].vpc_cidr == "10.65.0.0/16"
    error_message = "region i gets the i-th /16 of base_cidr"
  }
  assert {
    condition     = output.keyspace_replication == "{'class': 'NetworkTopologyStrategy', 'us-east-1': 2, 'ap-southeast-2': 2}"
    error_message = "the keyspace replication string, as RegionsModel.networkTopologyReplication() builds it: ${output.keyspace_replication}"
  }
  assert {
    condition     = output.exchange_homes == { NYSE = "us-east-1", NASDAQ = "us-east-1", ASX = "ap-southeast-2" }
    error_message = "every exchange has its home region"
  }
  assert {
    condition     = output.monthly_cost["us-east-1"] != null && output.monthly_cost_total != null
    error_message = "the default price table covers the default regions"
  }
}

run "three_regions" {
  command = apply

  variables {
    regions_yaml = var.three_regions
  }

  assert {
    condition     = length(output.regions) == 3 && length(distinct([for r in values(output.regions) : r.vpc_cidr])) == 3
    error_message = "three regions, three distinct VPC blocks"
  }
  assert {
    condition = alltrue([for r in values(output.regions) :
      length(distinct(concat(r.subnets.app, r.subnets.data, r.subnets.public))) == 9 &&
      alltrue([for s in concat(r.subnets.app, r.subnets.data, r.subnets.public) : cidrhost(s, 0) == cidrhost(r.vpc_cidr, 0) || startswith(s, join(".", slice(split(".", r.vpc_cidr), 0, 2)))])
    ])
    error_message = "nine distinct subnets per region, all inside the region's VPC"
  }
  assert {
    condition     = output.regions["us-east-1"].cassandra.ips == ["10.64.192.10", "10.64.196.10", "10.64.200.10"]
    error_message = "node n sits in availability zone n-1 at host .10 of its data subnet: ${jsonencode(output.regions["us-east-1"].cassandra.ips)}"
  }
  assert {
    condition     = output.seeds == ["10.64.192.10", "10.65.192.10", "10.66.192.10"]
    error_message = "one seed per DC, in every region: ${jsonencode(output.seeds)}"
  }
  assert {
    condition     = output.replication_factors == { "us-east-1" = 3, "ap-southeast-2" = 2, "eu-west-2" = 1 }
    error_message = "RF per DC = min(3, nodes)"
  }
  assert {
    condition     = keys(output.peering_pairs) == ["ap-southeast-2--eu-west-2", "us-east-1--ap-southeast-2", "us-east-1--eu-west-2"]
    error_message = "a full mesh: three peering connections, the earlier region requests: ${jsonencode(keys(output.peering_pairs))}"
  }
  assert {
    condition     = output.regions["eu-west-2"].cassandra.instance_type == "t3.large" && output.regions["us-east-1"].cassandra.instance_type == "m6i.large"
    error_message = "a region's cassandra-instance-type wins over the default"
  }
  assert {
    condition = alltrue([for name, rules in output.cross_region_ingress :
      jsonencode(sort([for rule in rules : tostring(rule.port)])) == jsonencode(["7000", "8080"]) &&
      length(rules[0].cidrs) == 6 && !anytrue([for c in rules[0].cidrs : contains(output.regions[name].subnets.data, c)])
    ])
    error_message = "only 7000 and 8080 cross regions, from the two other regions' subnets, never the region's own"
  }
  assert {
    condition     = output.ports.cassandra_cql.scope == "region" && output.ports.cassandra_internode.scope == "peers"
    error_message = "CQL stays inside a region; internode crosses"
  }
  assert {
    # 3 x m6i.large (0.096/h) + 3 x 120 GiB gp3 (0.08) = 210.24 + 28.80
    condition     = output.monthly_cost["us-east-1"].cassandra == 239.04
    error_message = "Cassandra's monthly cost in us-east-1: ${jsonencode(output.monthly_cost["us-east-1"])}"
  }
  assert {
    condition     = output.monthly_cost["eu-west-2"].total < output.monthly_cost["us-east-1"].total
    error_message = "one t3.large node costs less than three m6i.large"
  }
}

run "one_region" {
  command = apply

  variables {
    regions_yaml = "regions: [{name: us-east-1, datacenter: dc1, exchanges: [NYSE], cassandra-nodes: 1}]"
  }

  assert {
    condition     = length(output.peering_pairs) == 0 && output.seeds == ["10.64.192.10"]
    error_message = "one region: no peering, its only node is the seed"
  }
  assert {
    condition     = alltrue([for rule in output.cross_region_ingress["us-east-1"] : length(rule.cidrs) == 0])
    error_message = "one region: nothing is opened to other regions"
  }
  assert {
    condition     = output.keyspace_replication == "{'class': 'NetworkTopologyStrategy', 'dc1': 1}" && output.regions["us-east-1"].georegion == "us-east-1"
    error_message = "RF 1 for a single node; georegion defaults to the name"
  }
}

run "explicit_cidrs" {
  command = apply

  variables {
    regions_yaml = var.three_regions
    vpc_cidrs    = { "us-east-1" = "10.1.0.0/16", "ap-southeast-2" = "10.2.0.0/18", "eu-west-2" = "172.20.16.0/20" }
  }

  assert {
    condition     = output.regions["ap-southeast-2"].subnets.app[0] == "10.2.0.0/20" && output.regions["eu-west-2"].subnets.public[2] == "172.20.29.64/26"
    error_message = "subnets scale with the VPC's prefix: ${jsonencode(output.regions["eu-west-2"].subnets)}"
  }
}

run "overlapping_cidrs_are_refused" {
  command = plan

  variables {
    regions_yaml = var.three_regions
    vpc_cidrs    = { "us-east-1" = "10.1.0.0/16", "ap-southeast-2" = "10.1.64.0/18", "eu-west-2" = "10.3.0.0/16" }
  }

  expect_failures = [var.vpc_cidrs]
}

run "cidrs_that_miss_a_region_are_refused" {
  command = plan

  variables {
    regions_yaml = var.three_regions
    vpc_cidrs    = { "us-east-1" = "10.1.0.0/16", "ap-southeast-2" = "10.2.0.0/16" }
  }

  expect_failures = [output.regions]
}

run "a_region_without_an_exchange_is_refused" {
  command = plan

  variables {
    regions_yaml = <<-YAML
      regions:
        - {name: us-east-1, datacenter: us-east-1, exchanges: [NYSE], cassandra-nodes: 2}
        - {name: eu-west-2, datacenter: eu-west-2, exchanges: [], cassandra-nodes: 2}
    YAML
  }

  expect_failures = [var.regions_yaml]
}

run "an_exchange_in_two_regions_is_refused" {
  command = plan

  variables {
    regions_yaml = <<-YAML
      regions:
        - {name: us-east-1, datacenter: us-east-1, exchanges: [NYSE], cassandra-nodes: 2}
        - {name: eu-west-2, datacenter: eu-west-2, exchanges: [NYSE], cassandra-nodes: 2}
    YAML
  }

  expect_failures = [var.regions_yaml]
}

run "four_nodes_in_a_dc_are_refused" {
  command = plan

  variables {
    regions_yaml = "regions: [{name: us-east-1, datacenter: dc1, exchanges: [NYSE], cassandra-nodes: 4}]"
  }

  expect_failures = [var.regions_yaml]
}

run "a_region_missing_from_the_price_table_has_no_cost" {
  command = apply

  variables {
    regions_yaml = "regions: [{name: sa-east-1, datacenter: sa-east-1, exchanges: [B3], cassandra-nodes: 2}]"
  }

  assert {
    condition     = output.monthly_cost["sa-east-1"] == null && output.monthly_cost_total == null
    error_message = "no price, no guess"
  }
}
