################################################################################
# Regions model
################################################################################

locals {
  model = yamldecode(var.regions_yaml)

  # A region is known by its name: its address block comes from its own entry (vpc-cidr) or from
  # var.vpc_cidrs by name, never from its place in the file, so removing a region changes no other.
  regions = [for i, r in local.model.regions : {
    index                   = i
    name                    = r.name
    georegion               = try(r.georegion, r.name)
    datacenter              = r.datacenter
    exchanges               = r.exchanges
    cassandra_nodes         = var.cassandra_nodes == null ? r["cassandra-nodes"] : var.cassandra_nodes
    cassandra_instance_type = try(r["cassandra-instance-type"], var.instance_types.cassandra)
    vpc_cidr                = lookup(var.vpc_cidrs, r.name, try(r["vpc-cidr"], null))
  }]
  names = [for r in local.regions : r.name]
}

################################################################################
# Address plan
################################################################################

locals {
  vpc_cidr = { for r in local.regions : r.name => r.vpc_cidr }

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
# Kubernetes: the EKS node group, and what the overlays take from this plan
################################################################################

locals {
  # Every region runs the same workload (brokers and feed), so every node group is alike.
  node_group = {
    instance_type = var.instance_types.eks_node
    desired_size  = var.eks_nodes
    min_size      = var.eks_nodes
    max_size      = var.eks_nodes + 1 # room for a rolling node replacement
    allocatable   = lookup(var.node_allocatable, var.instance_types.eks_node, null)
    overhead      = var.node_overhead
  }

  peer_dns_name = { for name in local.names : name => "broker.${name}.${var.internal_zone}" }

  # The regions model the brokers run with on AWS: the file's, with the node counts Terraform builds,
  # so the keyspace the brokers create (RegionsModel) has the replication of the cluster that exists.
  deployment_regions_yaml = yamlencode(merge(local.model, {
    regions = [for r in local.model.regions : merge(r, {
      "cassandra-nodes" = var.cassandra_nodes == null ? r["cassandra-nodes"] : var.cassandra_nodes
      "vpc-cidr"        = local.vpc_cidr[r.name]
    })]
  }))

  # The broker's settings that come from this plan, one NAME=value a line (kustomize env file). Maps
  # keyed by region (peers, search) come as SPRING_APPLICATION_JSON: an environment variable's name
  # cannot spell ap-southeast-2.
  broker_env = { for r in local.regions : r.name => {
    BROKER_REGION                     = r.name
    BROKER_REGIONS_FILE               = "/etc/broker/regions/regions.yaml"
    SPRING_CASSANDRA_LOCAL_DATACENTER = r.datacenter
    SPRING_CASSANDRA_CONTACT_POINTS   = join(",", [for ip in try(local.cassandra_ips[r.name], []) : "${ip}:${local.ports.cassandra_cql.port}"])
    BROKER_KAFKA_BOOTSTRAP_SERVERS    = "${try(local.kafka_ip[r.name], "")}:${local.ports.kafka.port}"
    BROKER_KAFKA_USERNAME             = "broker-${r.name}"
    SPRING_APPLICATION_JSON = jsonencode({ broker = {
      routing = { peers = { for p in local.names : p => "http://${local.peer_dns_name[p]}:${local.ports.broker_routing.port}" if p != r.name } }
      search  = { elasticsearch = { (r.name) = "https://${try(local.elasticsearch_ip[r.name], "")}:${local.ports.elasticsearch.port}" } }
    } })
  } }

  # The Secrets' files: written by k8s/bin/from-terraform from the root's kubernetes_secrets output
  # (never in git, never in this plan). One Secret per pod kind: the feed sees only its own login.
  broker_secret_files = ["data-ca.crt", "cassandra-username", "cassandra-password", "kafka-password", "elasticsearch-username",
  "elasticsearch-password", "peer-private-key", "token-key", "operator-username", "operator-password"]
  feed_secret_files = ["data-ca.crt", "feed-kafka-password"]

  image_names = { broker_service = "brokerapp/broker-service", ticker_feed = "brokerapp/ticker-feed" }

  # The pods' ways out to what Kubernetes cannot name: the data tier on EC2 (the region's data
  # subnets) and the other regions' internal load balancers (their app subnets), exactly the ports
  # of the matrix above. Added to the base's policies (DNS only).
  egress_policies = { for r in local.regions : r.name => [
    {
      apiVersion = "networking.k8s.io/v1"
      kind       = "NetworkPolicy"
      metadata   = { name = "broker-service-egress" }
      spec = {
        podSelector = { matchLabels = { "app.kubernetes.io/name" = "broker-service" } }
        policyTypes = ["Egress"]
        egress = concat([
          {
            to    = [for c in local.subnets[r.name].data : { ipBlock = { cidr = c } }]
            ports = [for p in [local.ports.cassandra_cql.port, local.ports.kafka.port, local.ports.elasticsearch.port] : { port = p, protocol = "TCP" }]
            }], length(local.names) > 1 ? [{
            to    = flatten([for peer in local.names : [for c in local.subnets[peer].app : { ipBlock = { cidr = c } }] if peer != r.name])
            ports = [{ port = local.ports.broker_routing.port, protocol = "TCP" }]
        }] : [])
      }
    },
    {
      apiVersion = "networking.k8s.io/v1"
      kind       = "NetworkPolicy"
      metadata   = { name = "ticker-feed-egress" }
      spec = {
        podSelector = { matchLabels = { "app.kubernetes.io/name" = "ticker-feed" } }
        policyTypes = ["Egress"]
        egress = [{
          to    = [{ ipBlock = { cidr = "${try(local.kafka_ip[r.name], "0.0.0.0")}/32" } }]
          ports = [{ port = local.ports.kafka.port, protocol = "TCP" }]
        }]
      }
    },
  ] }

  # A kustomize Component per region, written to k8s/overlays/<region>/terraform/ (git-ignored):
  # everything the overlay needs from Terraform, so nothing is copied by hand.
  kustomize_component = { for r in local.regions : r.name => {
    "kustomization.yaml" = join("\n", [
      "# Written by k8s/bin/from-terraform from terraform output kubernetes: do not edit, do not commit.",
      yamlencode({
        apiVersion = "kustomize.config.k8s.io/v1alpha1"
        kind       = "Component"
        resources  = ["networkpolicies.yaml"]
        configMapGenerator = [
          { name = "broker-config", behavior = "merge", envs = ["broker.env"] },
          { name = "broker-regions", files = ["regions.yaml"] },
          { name = "broker-peer-public-keys", files = [for p in local.names : "secrets/broker.peers.public-keys.${p}"] },
        ]
        secretGenerator = [
          { name = "broker-credentials", files = [for f in local.broker_secret_files : "secrets/${f}"] },
          { name = "feed-credentials", files = [for f in local.feed_secret_files : "secrets/${f}"] },
        ]
        images = [for k, ref in var.images : {
          name    = local.image_names[k]
          newName = split("@", ref)[0]
          digest  = split("@", ref)[1]
        } if ref != null]
      }),
    ])
    "broker.env"           = join("", [for k, v in local.broker_env[r.name] : "${k}=${v}\n"])
    "regions.yaml"         = local.deployment_regions_yaml
    "networkpolicies.yaml" = join("---\n", [for p in local.egress_policies[r.name] : yamlencode(p)])
  } }
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
    # the lines the first estimate missed: billed by the hour or by use, never zero in a running region
    eks_extended_support = var.usage.eks_extended_support ? var.prices[r.name].eks_extended_support_hourly * var.hours_per_month : 0
    public_ipv4          = var.usage.public_ipv4_per_region * var.prices[r.name].public_ipv4_hourly * var.hours_per_month
    logs                 = var.usage.logs_gb_per_region * var.prices[r.name].logs_ingested_gb
    inter_region         = length(local.regions) > 1 ? var.usage.inter_region_gb_per_region * var.prices[r.name].inter_region_gb : 0
  }, null) }

  monthly_cost = { for name, c in local.cost : name => c == null ? null : merge(
    { for k, v in c : k => floor(v * 100 + 0.5) / 100 },
    { total = floor(sum(values(c)) * 100 + 0.5) / 100 }
  ) }
}
