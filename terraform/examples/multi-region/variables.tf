################################################################################
# Regions model
################################################################################

variable "regions_file" {
  description = "The regions model every module of the project reads."
  type        = string
  default     = "../../../infra/regions.yaml"
}

variable "name" {
  description = "Prefix of every resource name, and the Project tag."
  type        = string
  default     = "broker"
}

variable "home_region" {
  description = "The provider's default region: where global services (IAM, Route 53) are called. Regional resources carry their own region."
  type        = string
  default     = "us-east-1"
}

################################################################################
# Sizes
################################################################################

variable "instance_types" {
  description = "EC2 instance types; cassandra applies to regions whose entry in the regions file has no cassandra-instance-type. The EKS node group's type and size come from the plan (the manifests' requests)."
  type = object({
    cassandra     = optional(string, "m6i.large")
    kafka         = optional(string, "t3.medium")
    elasticsearch = optional(string, "t3.large")
    eks_node      = optional(string, "m6i.large")
  })
  default = {}
}

variable "single_nat_gateway" {
  description = "One NAT gateway per region instead of one per AZ."
  type        = bool
  default     = true
}

################################################################################
# Access and DNS
################################################################################

variable "dns_zone_id" {
  description = "The public Route 53 hosted zone that holds the order API's records (and the certificates' validation records)."
  type        = string

  validation {
    condition     = can(regex("^Z[A-Z0-9]+$", var.dns_zone_id))
    error_message = "dns_zone_id must be a Route 53 hosted zone id (Z...)."
  }
}

variable "api_name" {
  description = "The order API's DNS name in that zone, e.g. api.broker.example.com: latency-routed to the nearest region; <region>.<api_name> reaches one region."
  type        = string
}

variable "eks_admin_principal_arns" {
  description = "IAM principals that get cluster-admin on every region's EKS cluster (to apply k8s/overlays/<region>)."
  type        = list(string)
  default     = []
}

variable "eks_public_access_cidrs" {
  description = "CIDRs allowed to reach the EKS API endpoints over the internet (your office or CI); empty keeps them private."
  type        = list(string)
  default     = []
}

variable "tags" {
  description = "Extra tags for every resource (Environment defaults to prototype)."
  type        = map(string)
  default     = {}
}

################################################################################
# Images
################################################################################

variable "image_registry" {
  description = "Where the brokers' and the ticker feed's images are pulled from, host/namespace without a tag, e.g. 123456789012.dkr.ecr.us-east-1.amazonaws.com/brokerapp: this account's ECR in home_region, whose repositories <namespace>/broker-service and <namespace>/ticker-feed this root creates and replicates to every other region."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9-]+(\\.[a-z0-9-]+)+(:[0-9]{1,5})?(/[a-z0-9]+([._-][a-z0-9]+)*)*$", var.image_registry))
    error_message = "image_registry must be a registry host and optional path, lowercase, with no tag, digest or trailing slash, e.g. 123456789012.dkr.ecr.us-east-1.amazonaws.com/brokerapp."
  }
}

variable "image_digests" {
  description = "The image digests to deploy (sha256:<64 hex>), as Jib writes them (target/jib-image.digest) after pushing to image_registry: images are referenced by digest, never by tag. Null only for the first, targeted apply that creates the registries (terraform/README.md)."
  type = object({
    broker_service = string
    ticker_feed    = string
  })
  default = null

  validation {
    condition     = var.image_digests == null || alltrue([for d in values(var.image_digests) : can(regex("^sha256:[0-9a-f]{64}$", d))])
    error_message = "Every image digest must be sha256: followed by 64 lowercase hex digits."
  }
}
