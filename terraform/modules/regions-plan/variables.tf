################################################################################
# Regions model
################################################################################

variable "regions_yaml" {
  description = "The text of infra/regions.yaml: regions (name, georegion, datacenter, exchanges, cassandra-nodes, optional cassandra-instance-type) and the WAN between them. The same rules as the Java RegionsModel apply."
  type        = string

  validation {
    condition     = try(length(yamldecode(var.regions_yaml).regions) > 0, false)
    error_message = "The regions file must be YAML with a non-empty 'regions' list."
  }

  validation {
    condition = alltrue([for r in try(yamldecode(var.regions_yaml).regions, []) :
      can(regex("^[a-z]{2}(-gov)?-[a-z]+-[0-9]$", r.name)) && try(length(trimspace(r.datacenter)) > 0, false)
    ])
    error_message = "Every region needs a 'name' that is an AWS region id (e.g. us-east-1) and a non-empty 'datacenter'."
  }

  validation {
    condition = alltrue([for r in try(yamldecode(var.regions_yaml).regions, []) :
      try(length(r.exchanges) > 0, false)
    ])
    error_message = "Every region lists at least one exchange (regions[].exchanges), as infra/regions.yaml requires: a region without an exchange has no ticks to match."
  }

  validation {
    condition = alltrue([for r in try(yamldecode(var.regions_yaml).regions, []) :
      try(floor(r["cassandra-nodes"]) == r["cassandra-nodes"] && r["cassandra-nodes"] >= 1 && r["cassandra-nodes"] <= 3, false)
    ])
    error_message = "Every region's cassandra-nodes must be a whole number from 1 to 3."
  }

  validation {
    condition = alltrue([for r in try(yamldecode(var.regions_yaml).regions, []) :
      can(regex("^[a-z][a-z0-9-]*\\.[a-z0-9]+$", try(r["cassandra-instance-type"], "m6i.large")))
    ])
    error_message = "cassandra-instance-type, when given, must be an EC2 instance type such as m6i.large."
  }

  validation {
    condition = try(
      length(distinct([for r in yamldecode(var.regions_yaml).regions : r.name])) == length(yamldecode(var.regions_yaml).regions) &&
      length(distinct([for r in yamldecode(var.regions_yaml).regions : r.datacenter])) == length(yamldecode(var.regions_yaml).regions) &&
      length(distinct(flatten([for r in yamldecode(var.regions_yaml).regions : r.exchanges]))) == length(flatten([for r in yamldecode(var.regions_yaml).regions : r.exchanges])),
    false)
    error_message = "Region names, datacenter names and exchanges must each be unique (an exchange has one home region)."
  }

  validation {
    condition = alltrue([for link in try(yamldecode(var.regions_yaml).wan.links, []) :
      alltrue([for end in link.between : contains([for r in yamldecode(var.regions_yaml).regions : r.name], end)])
    ])
    error_message = "wan.links may only name regions listed under 'regions'."
  }
}

################################################################################
# Address plan
################################################################################

variable "vpc_cidrs" {
  description = "VPC CIDR per region name (prefix /16 to /20), overriding the regions file's vpc-cidr of those regions. Every region needs a block from one or the other; overlapping blocks are refused (peered VPCs cannot overlap)."
  type        = map(string)
  default     = {}

  validation {
    condition = alltrue([for c in values(var.vpc_cidrs) :
      can(cidrhost(c, 0)) && try(cidrhost(c, 0) == split("/", c)[0], false) && try(tonumber(split("/", c)[1]) >= 16 && tonumber(split("/", c)[1]) <= 20, false)
    ])
    error_message = "Every vpc_cidrs value must be an IPv4 network address with a prefix from /16 to /20, e.g. 10.64.0.0/16."
  }


}

################################################################################
# Sizes
################################################################################

variable "instance_types" {
  description = "EC2 instance types. cassandra is the default for regions whose entry in the regions file has no cassandra-instance-type."
  type = object({
    cassandra     = optional(string, "m6i.large")
    kafka         = optional(string, "t3.medium")
    elasticsearch = optional(string, "t3.large")
    eks_node      = optional(string, "m6i.large")
  })
  default = {}

  validation {
    condition     = alltrue([for t in values(var.instance_types) : can(regex("^[a-z][a-z0-9-]*\\.[a-z0-9]+$", t))])
    error_message = "Every instance type must look like an EC2 instance type, e.g. m6i.large."
  }
}

variable "eks_nodes" {
  description = "Worker nodes of each region's EKS node group (the brokers and the ticker feed run there). KubernetesPlanAgreementIT checks the overlays' requests, at the autoscaler's maximum, fit these nodes' allocatable."
  type        = number
  default     = 3

  validation {
    condition     = var.eks_nodes >= 1 && var.eks_nodes <= 20 && floor(var.eks_nodes) == var.eks_nodes
    error_message = "eks_nodes must be a whole number from 1 to 20."
  }
}

variable "cassandra_nodes" {
  description = "Cassandra nodes per DC on AWS, for every region (RF = min(3, nodes)); null keeps each region's cassandra-nodes from the regions file (the local stack's 2). A real deployment runs 3: RF 3 with LOCAL_QUORUM survives the loss of one node."
  type        = number
  default     = 3

  validation {
    condition     = var.cassandra_nodes == null || try(var.cassandra_nodes >= 1 && var.cassandra_nodes <= 3 && floor(var.cassandra_nodes) == var.cassandra_nodes, false)
    error_message = "cassandra_nodes must be null or a whole number from 1 to 3 (the regions model's range)."
  }
}

variable "node_allocatable" {
  description = "What one EKS node of an instance type offers pods: CPU in millicores and memory in MiB after the EKS AMI's kube-reserved (CPU 6 % of the first core, 1 % of the second, 0.5 % of the next two; memory 255 MiB + 11 MiB per pod) and the 100 MiB eviction threshold, and its pod limit under the VPC CNI. The control-plane test simulates nodes of this size."
  type = map(object({
    cpu_millicores = number
    memory_mib     = number
    pods           = number
  }))
  default = {
    "t3.medium"  = { cpu_millicores = 1930, memory_mib = 3354, pods = 17 }
    "t3.large"   = { cpu_millicores = 1930, memory_mib = 7212, pods = 35 }
    "m6i.large"  = { cpu_millicores = 1930, memory_mib = 7041, pods = 29 }
    "m6i.xlarge" = { cpu_millicores = 3920, memory_mib = 14576, pods = 58 }
  }
}

variable "node_overhead" {
  description = "What the cluster's own add-ons request on every node (aws-node 25m, kube-proxy 100m, eks-pod-identity-agent) and once per cluster (CoreDNS: two replicas of 100m and 70 MiB), taken off the node group's allocatable before the workload's requests are compared with it."
  type = object({
    per_node    = object({ cpu_millicores = number, memory_mib = number })
    per_cluster = object({ cpu_millicores = number, memory_mib = number })
  })
  default = {
    per_node    = { cpu_millicores = 125, memory_mib = 0 }
    per_cluster = { cpu_millicores = 200, memory_mib = 140 }
  }
}

variable "volume_gb" {
  description = "gp3 volume sizes in GiB: the data volume of each server kind, and the root volume of every instance."
  type = object({
    cassandra     = optional(number, 100)
    kafka         = optional(number, 50)
    elasticsearch = optional(number, 50)
    root          = optional(number, 20)
  })
  default = {}

  validation {
    condition     = alltrue([for v in values(var.volume_gb) : v >= 8 && v <= 16384])
    error_message = "Volume sizes must be 8 to 16384 GiB."
  }
}

variable "single_nat_gateway" {
  description = "One NAT gateway per region (cheaper) instead of one per availability zone (survives the loss of an AZ's NAT)."
  type        = bool
  default     = true
}

################################################################################
# Kubernetes: what the overlays receive from this plan (k8s/bin/from-terraform writes it out)
################################################################################

variable "internal_zone" {
  description = "The private Route 53 zone every region's VPC resolves: broker.<region>.<zone> is that region's internal load balancer (the peers' address)."
  type        = string
  default     = "brokerapp.internal"

  validation {
    condition     = can(regex("^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$", var.internal_zone))
    error_message = "internal_zone must be a DNS name such as brokerapp.internal."
  }
}

variable "broker_node_port" {
  description = "The NodePort of the broker Service on every EKS node: both load balancers target it, the overlays' Service declares it."
  type        = number
  default     = 30080

  validation {
    condition     = var.broker_node_port >= 30000 && var.broker_node_port <= 32767
    error_message = "broker_node_port must be in Kubernetes' NodePort range, 30000-32767."
  }
}

variable "kubernetes_namespace" {
  description = "The namespace every object of the overlays lives in."
  type        = string
  default     = "brokerapp"
}

variable "images" {
  description = "The container images by digest (<registry>/<name>@sha256:<64 hex>), as the root's ECR repositories hold them; null keeps the overlays' image names (a local or offline build)."
  type = object({
    broker_service = optional(string)
    ticker_feed    = optional(string)
  })
  default = {}

  validation {
    condition     = alltrue([for i in values(var.images) : i == null || can(regex("^[a-z0-9.-]+(:[0-9]+)?(/[a-z0-9._-]+)+@sha256:[0-9a-f]{64}$", i))])
    error_message = "Every image must be <registry>/<path>@sha256:<64 hex digits>: by digest, never by tag."
  }
}

################################################################################
# Prices
################################################################################

variable "prices" {
  description = "On-demand list prices in USD per region: EC2 per hour by instance type, gp3 per GiB-month, EKS cluster, NAT gateway and load balancers per hour. A region or instance type missing here gets a null cost, never a guess. Data transfer and per-request charges are usage-based and not included."
  type = map(object({
    ec2_hourly         = map(number)
    gp3_gb_month       = number
    eks_cluster_hourly = number
    nat_gateway_hourly = number
    alb_hourly         = number
    nlb_hourly         = number
    # added after the first estimate missed them
    eks_extended_support_hourly = optional(number, 0.60)  # per cluster, on top of eks_cluster_hourly, for a version past standard support
    public_ipv4_hourly          = optional(number, 0.005) # every public IPv4 address, attached or not (since Feb 2024)
    logs_ingested_gb            = optional(number, 0.50)  # CloudWatch Logs ingestion (EKS control plane, VPC flow log)
    inter_region_gb             = optional(number, 0.02)  # data transfer out to another region (Cassandra internode, routed orders)
  }))
  # Public on-demand Linux prices as listed by AWS in 2025 (not fetched at plan time: check them
  # before relying on the estimate).
  default = {
    "us-east-1" = {
      ec2_hourly         = { "t3.small" = 0.0208, "t3.medium" = 0.0416, "t3.large" = 0.0832, "m6i.large" = 0.096, "m6i.xlarge" = 0.192, "r6i.large" = 0.126 }
      gp3_gb_month       = 0.08
      eks_cluster_hourly = 0.10
      nat_gateway_hourly = 0.045
      alb_hourly         = 0.0225
      nlb_hourly         = 0.0225
    }
    "ap-southeast-2" = {
      ec2_hourly         = { "t3.small" = 0.0264, "t3.medium" = 0.0528, "t3.large" = 0.1056, "m6i.large" = 0.12, "m6i.xlarge" = 0.24, "r6i.large" = 0.1512 }
      gp3_gb_month       = 0.096
      eks_cluster_hourly = 0.10
      nat_gateway_hourly = 0.059
      alb_hourly         = 0.0252
      nlb_hourly         = 0.0252
    }
    "eu-west-2" = {
      ec2_hourly         = { "t3.small" = 0.0236, "t3.medium" = 0.0472, "t3.large" = 0.0944, "m6i.large" = 0.111, "m6i.xlarge" = 0.222, "r6i.large" = 0.148 }
      gp3_gb_month       = 0.0928
      eks_cluster_hourly = 0.10
      nat_gateway_hourly = 0.05
      alb_hourly         = 0.02646
      nlb_hourly         = 0.02646
    }
  }
}

variable "usage" {
  description = "The monthly usage the estimate assumes for its usage-based lines: public IPv4 addresses per region (the NAT gateways' and the public load balancer's, one per AZ), GB of logs ingested, GB sent to the other regions (Cassandra replication of ~300 orders/s of ~1 KB written about 4 times, plus hints and repair), and whether the EKS version is past standard support."
  type = object({
    public_ipv4_per_region     = optional(number, 4)
    logs_gb_per_region         = optional(number, 30)
    inter_region_gb_per_region = optional(number, 3200)
    eks_extended_support       = optional(bool, false)
  })
  default = {}
}

variable "hours_per_month" {
  description = "Hours in the billed month of the estimate (AWS's pricing pages use 730)."
  type        = number
  default     = 730
}
