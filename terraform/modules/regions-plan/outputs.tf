################################################################################
# Regions model
################################################################################

output "regions" {
  description = "Per region, in file order: index, georegion, datacenter, exchanges, VPC and subnet CIDRs (index k = availability zone k), Cassandra (nodes, instance type, fixed private IPs, replication factor), the Kafka and Elasticsearch addresses, and the peer regions."
  value = { for r in local.regions : r.name => {
    index      = r.index
    georegion  = r.georegion
    datacenter = r.datacenter
    exchanges  = r.exchanges
    vpc_cidr   = local.vpc_cidr[r.name]
    subnets    = local.subnets[r.name]
    cassandra = {
      nodes              = r.cassandra_nodes
      instance_type      = r.cassandra_instance_type
      ips                = local.cassandra_ips[r.name]
      replication_factor = min(3, r.cassandra_nodes)
    }
    kafka_ip         = local.kafka_ip[r.name]
    elasticsearch_ip = local.elasticsearch_ip[r.name]
    peers            = [for p in local.names : p if p != r.name]
  } }

  precondition {
    condition     = length(var.vpc_cidrs) == 0 || alltrue([for n in local.names : contains(keys(var.vpc_cidrs), n)])
    error_message = "vpc_cidrs must name every region of the regions file, or be empty (then base_cidr is cut)."
  }

  precondition {
    condition     = length(var.vpc_cidrs) > 0 || length(local.regions) <= pow(2, 16 - local.base_prefix)
    error_message = "base_cidr has room for fewer /16 blocks than there are regions."
  }
}

output "exchange_homes" {
  description = "Exchange -> the region whose broker matches its symbols."
  value       = merge([for r in local.regions : { for e in r.exchanges : e => r.name }]...)
}

################################################################################
# Cassandra replication
################################################################################

output "seeds" {
  description = "Cassandra seeds of the whole cluster: node 1 of every DC, so a DC can (re)join through any region."
  value       = local.seeds
}

output "replication_factors" {
  description = "Replicas per data center (min(3, nodes)): the NetworkTopologyStrategy options of the keyspace."
  value       = local.replication_factors
}

output "keyspace_replication" {
  description = "The replication clause of the broker keyspace, the same string the Java RegionsModel builds."
  value       = local.keyspace_replication
}

################################################################################
# Between regions
################################################################################

output "peering_pairs" {
  description = "The VPC peering connections of the full mesh, keyed requester--accepter."
  value       = local.peering_pairs
}

output "ports" {
  description = "Every port the deployment opens: target, scope (region, peers or internet) and who may connect."
  value       = local.ports
}

output "cross_region_ingress" {
  description = "Per receiving region, the only rules that admit traffic from other regions: Cassandra internode (7000) from their data subnets and broker routing (8080) from their app subnets."
  value       = local.cross_region_ingress
}

################################################################################
# Cost
################################################################################

output "monthly_cost" {
  description = "Estimated USD per month per region from var.prices (compute, gp3, EKS, NAT, load balancers; data transfer excluded); null for a region or instance type the price table lacks."
  value       = local.monthly_cost
}

output "monthly_cost_total" {
  description = "Sum of the regions' estimates, or null when any region's is unknown."
  value       = anytrue([for c in values(local.monthly_cost) : c == null]) ? null : floor(sum([for c in values(local.monthly_cost) : c.total]) * 100 + 0.5) / 100
}
