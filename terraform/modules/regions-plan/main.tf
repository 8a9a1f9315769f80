################################################################################
# Regions model
################################################################################

locals {
  model = yamldecode(var.regions_yaml)

  # file order matters: region i owns the i-th address block, as in the local stack's AddressPlan
  regions = [for i, r in local.model.regions : {
    index                   = i
    name                    = r.name
    georegion               = try(r.georegion, r.name)
    datacenter              = r.datacenter
    exchanges               = r.exchanges
    cassandra_nodes         = r["cassandra-nodes"]
    cassandra_instance_type = try(r["cassandra-instance-type"], var.instance_types.cassandra)
  }]
  names = [for r in local.regions : r.name]
}

################################################################################
# Address plan
################################################################################

locals {
  base_prefix = tonumber(split("/", var.base_cidr)[1])

  vpc_cidr = { for r in local.regions : r.name =>
    length(var.vpc_cidrs) > 0 ? lookup(var.vpc_cidrs, r.name, null) : cidrsubnet(var.base_cidr, 16 - local.base_prefix, r.index)
  }

  # Per VPC (a /16 by default): three large app subnets for EKS (pods take VPC addresses), then
  # three small data subnets (Cassandra, Kafka, Elasticsearch) and three small public subnets
  # (load balancers, NAT). Index k of each list is availability zone k.
  subnets = { for name, cidr in local.vpc_cidr : name => {
    app    = cidr == null ? [] : slice(cidrsubnets(cidr, 2, 2, 2, 6, 6, 6, 6, 6, 6), 0, 3)
    data   = cidr == null ? [] : slice(cidrsubnets(cidr, 2, 2, 2, 6, 6, 6, 6, 6, 6), 3, 6)
    public = cidr == null ? [] : slice(cidrsubnets(cidr, 2, 2, 2, 6, 6, 6, 6, 6, 6), 6, 9)
  } }

  # Fixed private addresses: node n (1-based) in availability zone n-1, so the seeds (node 1 of
  # every DC) and the TLS certificates are known before any instance exists.
  cassandra_ips = { for r in local.regions : r.name => [
    for n in range(1, r.cassandra_nodes + 1) : cidrhost(local.subnets[r.name].data[(n - 1) % 3], 10 + floor((n - 1) / 3))
  ] if local.vpc_cidr[r.name] != null }
  kafka_ip         = { for name, s in local.subnets : name => cidrhost(s.data[0], 20) if length(s.data) > 0 }
  elasticsearch_ip = { for name, s in local.subnets : name => cidrhost(s.data[1], 20) if length(s.data) > 0 }

  seeds = [for name in local.names : local.cassandra_ips[name][0] if contains(keys(local.cassandra_ips), name)]
}

################################################################################
# Cassandra replication
################################################################################

locals {
  # RF of a DC = min(3, nodes): the Java RegionsModel's rule, so the keyspace the brokers create
  # and the cluster Terraform builds agree.
  replication_factors = { for r in local.regions : r.datacenter => min(3, r.cassandra_nodes) }
  keyspace_replication = format("{'class': 'NetworkTopologyStrategy'%s}",
  join("", [for r in local.regions : format(", '%s': %d", r.datacenter, min(3, r.cassandra_nodes))]))
}

################################################################################
# Between regions
################################################################################

locals {
  # Full mesh of VPC peering connections: one per unordered pair, the earlier region requests.
  peering_pairs = { for pair in flatten([for i, a in local.names : [for j, b in local.names : { requester = a, accepter = b } if j > i]]) :
  "${pair.requester}--${pair.accepter}" => pair }

  # The firewall matrix: every port the system opens, who may connect, and from how far.
  # scope "region": sources inside the region's VPC only; "peers": the other regions' subnets
  # (over peering); "internet": anyone.
  ports = {
    cassandra_internode = { port = 7000, target = "cassandra", scope = "peers", sources = "cassandra nodes of every region (data subnets)" }
    cassandra_cql       = { port = 9042, target = "cassandra", scope = "region", sources = "brokers (EKS nodes) and the loadtest security group of the same region" }
    kafka               = { port = 9092, target = "kafka", scope = "region", sources = "brokers (EKS nodes) and the loadtest security group" }
    kafka_controller    = { port = 9093, target = "kafka", scope = "region", sources = "the Kafka node itself (KRaft controller)" }
    elasticsearch       = { port = 9200, target = "elasticsearch", scope = "region", sources = "brokers (EKS nodes)" }
    order_api           = { port = 443, target = "public load balancer", scope = "internet", sources = "anyone (HTTPS, TLS 1.2+)" }
    broker_routing      = { port = 8080, target = "internal load balancer", scope = "peers", sources = "brokers of the other regions (EKS app subnets), the loadtest security group" }
    broker_node_port    = { port = 30080, target = "eks nodes", scope = "region", sources = "the region's two load balancers" }
    cassandra_exporter  = { port = 7070, target = "cassandra", scope = "region", sources = "Prometheus (EKS nodes)" }
    kafka_exporter      = { port = 7071, target = "kafka", scope = "region", sources = "Prometheus (EKS nodes)" }
  }

  # The two paths that cross regions, as CIDR rules per receiving region: Cassandra internode from
  # the other regions' data subnets, broker-to-broker routing from their app subnets. Nothing else
  # (CQL in particular) is reachable from another region.
  cross_region_ingress = { for name in local.names : name => [
    { port = local.ports.cassandra_internode.port, target = "cassandra", cidrs = flatten([for peer in local.names : local.subnets[peer].data if peer != name]) },
    { port = local.ports.broker_routing.port, target = "internal load balancer", cidrs = flatten([for peer in local.names : local.subnets[peer].app if peer != name]) },
  ] }
}

################################################################################
# Cost
################################################################################

locals {
  nat_gateways = var.single_nat_gateway ? 1 : 3

  cost = { for r in local.regions : r.name => try({
    cassandra = (r.cassandra_nodes * var.prices[r.name].ec2_hourly[r.cassandra_instance_type] * var.hours_per_month
    + r.cassandra_nodes * (var.volume_gb.cassandra + var.volume_gb.root) * var.prices[r.name].gp3_gb_month)
    kafka = (var.prices[r.name].ec2_hourly[var.instance_types.kafka] * var.hours_per_month
    + (var.volume_gb.kafka + var.volume_gb.root) * var.prices[r.name].gp3_gb_month)
    elasticsearch = (var.prices[r.name].ec2_hourly[var.instance_types.elasticsearch] * var.hours_per_month
    + (var.volume_gb.elasticsearch + var.volume_gb.root) * var.prices[r.name].gp3_gb_month)
    eks = ((var.prices[r.name].eks_cluster_hourly + var.eks_nodes * var.prices[r.name].ec2_hourly[var.instance_types.eks_node]) * var.hours_per_month
    + var.eks_nodes * var.volume_gb.root * var.prices[r.name].gp3_gb_month)
    network = (local.nat_gateways * var.prices[r.name].nat_gateway_hourly + var.prices[r.name].alb_hourly + var.prices[r.name].nlb_hourly) * var.hours_per_month
  }, null) }

  monthly_cost = { for name, c in local.cost : name => c == null ? null : merge(
    { for k, v in c : k => floor(v * 100 + 0.5) / 100 },
    { total = floor(sum(values(c)) * 100 + 0.5) / 100 }
  ) }
}
