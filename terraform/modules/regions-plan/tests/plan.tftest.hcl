# terraform test for the provider-free plan: runs offline (no provider to download).
# Each run applies the module (it has no resources, so "apply" only evaluates it) and asserts.

variables {
  three_regions = <<-YAML
    regions:
      - {name: us-east-1, georegion: North Virginia, datacenter: us-east-1, exchanges: [NYSE, NASDAQ], cassandra-nodes: 3, vpc-cidr: 10.64.0.0/16}
      - {name: ap-southeast-2, georegion: Sydney, datacenter: ap-southeast-2, exchanges: [ASX], cassandra-nodes: 2, vpc-cidr: 10.65.0.0/16}
      - {name: eu-west-2, georegion: London, datacenter: eu-west-2, exchanges: [LSE], cassandra-nodes: 1, cassandra-instance-type: t3.large, vpc-cidr: 10.66.0.0/16}
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
    condition     = keys(output.regions) == ["ap-southeast-2", "us-east-1"]
    error_message = "the repository's two regions"
  }
  assert {
    condition     = output.regions["us-east-1"].vpc_cidr == "10.64.0.0/16" && output.regions["ap-southeast-2"].vpc_cidr == "10.65.0.0/16"
    error_message = "each region's block from its vpc-cidr"
  }
  assert {
    condition     = output.keyspace_replication == "{'class': 'NetworkTopologyStrategy', 'us-east-1': 3, 'ap-southeast-2': 3}"
    error_message = "on AWS every DC has 3 nodes and RF 3 by default: ${output.keyspace_replication}"
  }
  assert {
    condition     = yamldecode(output.kubernetes["us-east-1"].files["regions.yaml"]).regions[1]["cassandra-nodes"] == 3
    error_message = "the brokers' regions model carries the node count Terraform builds, so their keyspace gets RF 3 too"
  }
  assert {
    condition     = output.kubernetes["us-east-1"].broker_node_port == 30080 && output.kubernetes["us-east-1"].namespace == "brokerapp"
    error_message = "the NodePort the load balancers target, and the namespace"
  }
  assert {
    condition     = strcontains(output.kubernetes["us-east-1"].files["broker.env"], "SPRING_CASSANDRA_CONTACT_POINTS=10.64.192.10:9042,10.64.196.10:9042,10.64.200.10:9042\n")
    error_message = "the brokers reach their DC's three nodes: ${output.kubernetes["us-east-1"].files["broker.env"]}"
  }
  assert {
    condition     = strcontains(output.kubernetes["us-east-1"].files["broker.env"], "\"ap-southeast-2\":\"http://broker.ap-southeast-2.brokerapp.internal:8080\"")
    error_message = "the peer is the name the root's private zone creates: ${output.kubernetes["us-east-1"].files["broker.env"]}"
  }
  assert {
    condition     = output.regions["us-east-1"].eks == { instance_type = "m6i.large", desired_size = 3, min_size = 3, max_size = 4 }
    error_message = "the node group the overlays are checked against: ${jsonencode(output.regions["us-east-1"].eks)}"
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
    condition     = output.replication_factors == { "us-east-1" = 3, "ap-southeast-2" = 3, "eu-west-2" = 3 }
    error_message = "cassandra_nodes = 3 (the default) overrides the file on AWS"
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
    # 4 public IPv4 x 0.005 x 730 = 14.60; 30 GB of logs x 0.50 = 15; 3,200 GB x 0.02 = 64
    condition     = output.monthly_cost["us-east-1"].public_ipv4 == 14.6 && output.monthly_cost["us-east-1"].logs == 15 && output.monthly_cost["us-east-1"].inter_region == 64 && output.monthly_cost["us-east-1"].eks_extended_support == 0
    error_message = "the lines the first estimate missed: ${jsonencode(output.monthly_cost["us-east-1"])}"
  }
}

run "the_file_node_counts_when_asked" {
  command = apply

  variables {
    regions_yaml    = var.three_regions
    cassandra_nodes = null
  }

  assert {
    condition     = output.replication_factors == { "us-east-1" = 3, "ap-southeast-2" = 2, "eu-west-2" = 1 }
    error_message = "RF per DC = min(3, nodes) of the file, as the local stack and the Java RegionsModel"
  }
}

run "a_region_is_known_by_its_name" {
  command = apply

  variables {
    # the three regions without the first: the others keep their blocks, addresses and seeds
    regions_yaml = <<-YAML
      regions:
        - {name: ap-southeast-2, datacenter: ap-southeast-2, exchanges: [ASX], cassandra-nodes: 2, vpc-cidr: 10.65.0.0/16}
        - {name: eu-west-2, datacenter: eu-west-2, exchanges: [LSE], cassandra-nodes: 1, vpc-cidr: 10.66.0.0/16}
    YAML
  }

  assert {
    condition     = output.regions["ap-southeast-2"].vpc_cidr == "10.65.0.0/16" && output.regions["eu-west-2"].cassandra.ips[0] == "10.66.192.10"
    error_message = "removing a region changes no other region's addresses"
  }
}

run "a_region_without_a_block_is_refused" {
  command = plan

  variables {
    regions_yaml = "regions: [{name: us-east-1, datacenter: dc1, exchanges: [NYSE], cassandra-nodes: 1}]"
  }

  expect_failures = [output.regions]
}

run "images_by_tag_are_refused" {
  command = plan

  variables {
    regions_yaml = var.three_regions
    images       = { broker_service = "123456789012.dkr.ecr.us-east-1.amazonaws.com/brokerapp/broker-service:latest" }
  }

  expect_failures = [var.images]
}

run "images_by_digest_reach_the_overlays" {
  command = apply

  variables {
    regions_yaml = var.three_regions
    images       = { broker_service = "123456789012.dkr.ecr.us-east-1.amazonaws.com/brokerapp/broker-service@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" }
  }

  assert {
    condition = yamldecode(output.kubernetes["eu-west-2"].files["kustomization.yaml"]).images == [{
      name    = "brokerapp/broker-service"
      newName = "123456789012.dkr.ecr.us-east-1.amazonaws.com/brokerapp/broker-service"
      digest  = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    }]
    error_message = "the overlay's image is the registry's, by digest"
  }
}

run "one_region" {
  command = apply

  variables {
    regions_yaml    = "regions: [{name: us-east-1, datacenter: dc1, exchanges: [NYSE], cassandra-nodes: 1, vpc-cidr: 10.64.0.0/16}]"
    cassandra_nodes = null
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

  expect_failures = [output.regions]
}

run "cidrs_by_name_override_the_file" {
  command = apply

  variables {
    regions_yaml = var.three_regions
    vpc_cidrs    = { "eu-west-2" = "10.9.0.0/16" }
  }

  assert {
    condition     = output.regions["eu-west-2"].vpc_cidr == "10.9.0.0/16" && output.regions["us-east-1"].vpc_cidr == "10.64.0.0/16"
    error_message = "vpc_cidrs overrides the named region only"
  }
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
    regions_yaml = "regions: [{name: sa-east-1, datacenter: sa-east-1, exchanges: [B3], cassandra-nodes: 2, vpc-cidr: 10.70.0.0/16}]"
  }

  assert {
    condition     = output.monthly_cost["sa-east-1"] == null && output.monthly_cost_total == null
    error_message = "no price, no guess"
  }
}
