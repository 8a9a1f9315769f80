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
    peer_dns_name    = local.peer_dns_name[r.name]
    eks              = { instance_type = local.node_group.instance_type, desired_size = local.node_group.desired_size, min_size = local.node_group.min_size, max_size = local.node_group.max_size }
  } }

  precondition {
    condition     = alltrue([for r in local.regions : r.vpc_cidr != null])
    error_message = "Every region needs its VPC block, by name: a vpc-cidr in its entry of the regions file or an entry in vpc_cidrs."
  }

  precondition {
    condition = alltrue([for c in values(local.vpc_cidr) : c == null ||
      can(cidrhost(c, 0)) && try(cidrhost(c, 0) == split("/", c)[0], false) && try(tonumber(split("/", c)[1]) >= 16 && tonumber(split("/", c)[1]) <= 20, false)
    ])
    error_message = "Every VPC block must be an IPv4 network address with a prefix from /16 to /20, e.g. 10.64.0.0/16."
  }

  precondition {
    # two blocks overlap when each starts before the other ends; addresses compared as numbers
    condition = alltrue(flatten([for i, a in local.names : [for j, b in local.names : j <= i || try(
      sum([for k, o in split(".", cidrhost(local.vpc_cidr[a], 0)) : tonumber(o) * pow(256, 3 - k)]) + pow(2, 32 - tonumber(split("/", local.vpc_cidr[a])[1])) <= sum([for k, o in split(".", cidrhost(local.vpc_cidr[b], 0)) : tonumber(o) * pow(256, 3 - k)]) ||
      sum([for k, o in split(".", cidrhost(local.vpc_cidr[b], 0)) : tonumber(o) * pow(256, 3 - k)]) + pow(2, 32 - tonumber(split("/", local.vpc_cidr[b])[1])) <= sum([for k, o in split(".", cidrhost(local.vpc_cidr[a], 0)) : tonumber(o) * pow(256, 3 - k)]),
    true)]]))
    error_message = "VPC blocks overlap: peered VPCs need disjoint address blocks."
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
# Kubernetes
################################################################################

output "internal_zone" {
  description = "The private DNS zone of the peers' names (broker.<region>.<zone>), associated with every region's VPC by the root."
  value       = var.internal_zone
}

output "kubernetes" {
  description = "Per region, what the Kubernetes overlays take from Terraform: namespace, the broker NodePort the load balancers target, the node group (size, allocatable per node, add-on overhead), and the files of the overlay's generated kustomize Component (k8s/bin/from-terraform writes them to k8s/overlays/<region>/terraform/)."
  value = { for r in local.regions : r.name => {
    namespace        = var.kubernetes_namespace
    broker_node_port = var.broker_node_port
    peer_dns_name    = local.peer_dns_name[r.name]
    node_group       = local.node_group
    secret_files     = { broker = local.broker_secret_files, feed = local.feed_secret_files }
    files            = local.kustomize_component[r.name]
  } }

  precondition {
    condition     = local.node_group.allocatable != null
    error_message = "node_allocatable has no entry for the EKS node type ${var.instance_types.eks_node}: add its allocatable CPU, memory and pod limit."
  }
}

################################################################################
# Cost
################################################################################

output "monthly_cost" {
  description = "Estimated USD per month per region from var.prices and var.usage: compute, gp3, EKS (and its extended support when var.usage says so), NAT, load balancers, public IPv4, log ingestion, inter-region transfer; null for a region or instance type the price table lacks."
  value       = local.monthly_cost
}

output "monthly_cost_total" {
  description = "Sum of the regions' estimates, or null when any region's is unknown."
  value       = anytrue([for c in values(local.monthly_cost) : c == null]) ? null : floor(sum([for c in values(local.monthly_cost) : c.total]) * 100 + 0.5) / 100
}
