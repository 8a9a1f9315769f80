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

variable "base_cidr" {
  description = "The block the region VPCs are cut from when vpc_cidrs is empty: region i (0-based, file order) gets the i-th /16 of it."
  type        = string
  default     = "10.64.0.0/12"

  validation {
    condition     = can(cidrhost(var.base_cidr, 0)) && try(tonumber(split("/", var.base_cidr)[1]) <= 16, false) && try(cidrhost(var.base_cidr, 0) == split("/", var.base_cidr)[0], false)
    error_message = "base_cidr must be an IPv4 network address with a prefix of /16 or shorter, e.g. 10.64.0.0/12."
  }
}

variable "vpc_cidrs" {
  description = "Explicit VPC CIDR per region (prefix /16 to /20), instead of cutting base_cidr; when set it must name every region. Overlapping blocks are refused: peered VPCs cannot overlap."
  type        = map(string)
  default     = {}

  validation {
    condition = alltrue([for c in values(var.vpc_cidrs) :
      can(cidrhost(c, 0)) && try(cidrhost(c, 0) == split("/", c)[0], false) && try(tonumber(split("/", c)[1]) >= 16 && tonumber(split("/", c)[1]) <= 20, false)
    ])
    error_message = "Every vpc_cidrs value must be an IPv4 network address with a prefix from /16 to /20, e.g. 10.64.0.0/16."
  }

  validation {
    # two blocks overlap when each starts before the other ends; addresses compared as numbers
    condition = alltrue(flatten([for i, a in keys(var.vpc_cidrs) : [for j, b in keys(var.vpc_cidrs) : j <= i || try(
      sum([for k, o in split(".", cidrhost(var.vpc_cidrs[a], 0)) : tonumber(o) * pow(256, 3 - k)]) + pow(2, 32 - tonumber(split("/", var.vpc_cidrs[a])[1])) <= sum([for k, o in split(".", cidrhost(var.vpc_cidrs[b], 0)) : tonumber(o) * pow(256, 3 - k)]) ||
      sum([for k, o in split(".", cidrhost(var.vpc_cidrs[b], 0)) : tonumber(o) * pow(256, 3 - k)]) + pow(2, 32 - tonumber(split("/", var.vpc_cidrs[b])[1])) <= sum([for k, o in split(".", cidrhost(var.vpc_cidrs[a], 0)) : tonumber(o) * pow(256, 3 - k)]),
    true)]]))
    error_message = "vpc_cidrs overlap: peered VPCs need disjoint address blocks."
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
    eks_node      = optional(string, "t3.medium")
  })
  default = {}

  validation {
    condition     = alltrue([for t in values(var.instance_types) : can(regex("^[a-z][a-z0-9-]*\\.[a-z0-9]+$", t))])
    error_message = "Every instance type must look like an EC2 instance type, e.g. m6i.large."
  }
}

variable "eks_nodes" {
  description = "Worker nodes of each region's EKS node group (the brokers and the in-cluster Prometheus run there)."
  type        = number
  default     = 2

  validation {
    condition     = var.eks_nodes >= 1 && var.eks_nodes <= 20 && floor(var.eks_nodes) == var.eks_nodes
    error_message = "eks_nodes must be a whole number from 1 to 20."
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

variable "hours_per_month" {
  description = "Hours in the billed month of the estimate (AWS's pricing pages use 730)."
  type        = number
  default     = 730
}
