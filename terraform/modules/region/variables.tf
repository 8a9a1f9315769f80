################################################################################
# Region
################################################################################

variable "region" {
  description = "The AWS region id; every resource of this module is created there (provider 6's per-resource region)."
  type        = string

  validation {
    condition     = can(regex("^[a-z]{2}(-gov)?-[a-z]+-[0-9]$", var.region))
    error_message = "region must be an AWS region id such as us-east-1."
  }
}

variable "name" {
  description = "Prefix of every resource name and tag (e.g. broker)."
  type        = string
  default     = "broker"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{1,20}$", var.name))
    error_message = "name must be 2-21 lowercase letters, digits or dashes, starting with a letter."
  }
}

variable "plan" {
  description = "This region's entry of the regions-plan module's `regions` output: datacenter, exchanges, VPC and subnet CIDRs, Cassandra nodes and their fixed IPs, Kafka and Elasticsearch IPs, the EKS node group's size, and the region's peer DNS name. A region is identified by its name, never by its position in the regions file."
  type = object({
    index      = optional(number) # unused: names and identities derive from the region name
    datacenter = string
    exchanges  = list(string)
    vpc_cidr   = string
    subnets = object({
      app    = list(string)
      data   = list(string)
      public = list(string)
    })
    cassandra = object({
      nodes              = number
      instance_type      = string
      ips                = list(string)
      replication_factor = number
    })
    kafka_ip         = string
    elasticsearch_ip = string
    peers            = list(string)
    eks = object({
      instance_type = string
      desired_size  = number
      min_size      = number
      max_size      = number
    })
    peer_dns_name = string
  })

  validation {
    condition     = length(var.plan.subnets.app) == 3 && length(var.plan.subnets.data) == 3 && length(var.plan.subnets.public) == 3
    error_message = "The plan must give three subnets of each kind (one per availability zone)."
  }

  validation {
    condition     = var.plan.eks.min_size >= 1 && var.plan.eks.min_size <= var.plan.eks.desired_size && var.plan.eks.desired_size <= var.plan.eks.max_size
    error_message = "The plan's node group must satisfy 1 <= min_size <= desired_size <= max_size."
  }
}

variable "seeds" {
  description = "Cassandra seeds of the whole cluster (node 1 of every DC), from the regions-plan module."
  type        = list(string)
}

variable "cross_region_ingress" {
  description = "The rules that admit other regions' traffic into this one (regions-plan's cross_region_ingress[region]): port 7000 to Cassandra, 8080 to the internal load balancer."
  type = list(object({
    port   = number
    target = string
    cidrs  = list(string)
  }))
}

################################################################################
# Sizes and versions
################################################################################

variable "instance_types" {
  description = "EC2 instance types of Kafka and Elasticsearch (Cassandra's and the EKS nodes' come from the plan)."
  type = object({
    kafka         = optional(string, "t3.medium")
    elasticsearch = optional(string, "t3.large")
  })
  default = {}
}

variable "volume_gb" {
  description = "gp3 data volume per server kind and the root volume of every instance, GiB."
  type = object({
    cassandra     = optional(number, 100)
    kafka         = optional(number, 50)
    elasticsearch = optional(number, 50)
    root          = optional(number, 20)
  })
  default = {}
}

variable "single_nat_gateway" {
  description = "One NAT gateway for the region instead of one per availability zone."
  type        = bool
  default     = true
}

variable "versions" {
  description = "Server versions installed by cloud-init, the same as the local stack's: Cassandra (the Apache RPM repository, series 50x), Kafka (the Apache tarball, KRaft), Elasticsearch (a minor of the Elastic 8.x repository; its newest patch is installed), Kubernetes (EKS)."
  type = object({
    cassandra     = optional(string, "5.0.9")
    kafka         = optional(string, "4.3.1")
    elasticsearch = optional(string, "8.19")
    kubernetes    = optional(string, "1.36")
  })
  default = {}

  validation {
    condition     = startswith(var.versions.cassandra, "5.0.") && startswith(var.versions.elasticsearch, "8.")
    error_message = "Cassandra must be 5.0.x (the brokers' driver and schema target it) and Elasticsearch 8.x (the official Java client refuses other majors)."
  }

  # Only versions in EKS standard support: 1.35 (until 27 Mar 2027) and 1.36. A version past it
  # costs $0.50 per hour per cluster in extended support (1.33 since 29 Jul 2026).
  validation {
    condition     = contains(["1.35", "1.36"], var.versions.kubernetes)
    error_message = "versions.kubernetes must be an EKS version in standard support: 1.35 or 1.36."
  }
}

################################################################################
# TLS
################################################################################

variable "data_ca" {
  description = "The deployment's private CA for its data servers (PEM certificate and private key): it signs every Cassandra node's certificate, so nodes of all regions trust each other for internode TLS, and each region's Kafka broker's; clients of both trust it."
  type = object({
    cert_pem        = string
    private_key_pem = string
  })
  sensitive = true
}

################################################################################
# Cassandra logins
################################################################################

variable "cassandra_roles" {
  description = "The cluster-wide Cassandra roles' passwords (admin: superuser; broker: the brokers' login), generated once by the root for every region: each region keeps them in its SSM Parameter Store (/<name>/<region>/cassandra/<role>.password)."
  type = object({
    admin_password  = string
    broker_password = string
  })
  sensitive = true

  validation {
    condition     = can(regex("^[A-Za-z0-9]{16,}$", var.cassandra_roles.admin_password)) && can(regex("^[A-Za-z0-9]{16,}$", var.cassandra_roles.broker_password))
    error_message = "Cassandra role passwords must be at least 16 letters or digits (they are written into CQL string literals)."
  }
}

variable "creates_roles" {
  description = "True for exactly one region of the deployment (the first of the regions file): its node 1 creates the roles once the cluster accepts writes, sets system_auth's replication and disables the default cassandra login."
  type        = bool
  default     = false
}

variable "system_auth_replication" {
  description = "The replication of system_auth that the role-creating node sets, a CQL map such as {'class': 'NetworkTopologyStrategy', 'us-east-1': 3, 'ap-southeast-2': 3} (regions-plan's keyspace_replication). Used only where creates_roles is true."
  type        = string
  default     = ""

  validation {
    condition     = var.system_auth_replication == "" || can(regex("^\\{'class': 'NetworkTopologyStrategy'(, '[A-Za-z0-9_-]+': [1-9])+\\}$", var.system_auth_replication))
    error_message = "system_auth_replication must be empty or a NetworkTopologyStrategy map like {'class': 'NetworkTopologyStrategy', 'us-east-1': 3}."
  }
}

################################################################################
# Brokers and DNS
################################################################################

variable "broker_node_port" {
  description = "The NodePort of the broker Service in k8s/overlays/<region> (both load balancers forward to it)."
  type        = number
  default     = 30080

  validation {
    condition     = var.broker_node_port >= 30000 && var.broker_node_port <= 32767
    error_message = "broker_node_port must be in Kubernetes' NodePort range 30000-32767."
  }
}

variable "dns" {
  description = "The public Route 53 zone and the order API's name in it: a latency record <api_name> and a regional record <region>.<api_name> pointing at this region's load balancer."
  type = object({
    zone_id  = string
    api_name = string
  })

  validation {
    condition     = can(regex("^[a-z0-9.-]+\\.[a-z]{2,}$", var.dns.api_name))
    error_message = "dns.api_name must be a DNS name such as api.broker.example.com."
  }
}

variable "eks_admin_principal_arns" {
  description = "IAM principals given cluster-admin on the region's EKS cluster (to apply k8s/overlays/<region>)."
  type        = list(string)
  default     = []
}

variable "eks_public_access_cidrs" {
  description = "CIDRs allowed to reach the EKS API endpoint over the internet; empty keeps the endpoint private (reach it from the VPC or through a VPN)."
  type        = list(string)
  default     = []
}

variable "deletion_protection" {
  description = "Protect the load balancers from deletion (turn off before terraform destroy)."
  type        = bool
  default     = false
}

variable "tags" {
  description = "Tags added to every resource (project, environment and region tags are always set)."
  type        = map(string)
  default     = {}
}
