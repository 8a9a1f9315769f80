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

variable "base_cidr" {
  description = "The block the region VPCs are cut from (a /16 per region, in file order)."
  type        = string
  default     = "10.64.0.0/12"
}

################################################################################
# Sizes
################################################################################

variable "instance_types" {
  description = "EC2 instance types; cassandra applies to regions whose entry in the regions file has no cassandra-instance-type."
  type = object({
    cassandra     = optional(string, "m6i.large")
    kafka         = optional(string, "t3.medium")
    elasticsearch = optional(string, "t3.large")
    eks_node      = optional(string, "t3.medium")
  })
  default = {}
}

variable "eks_nodes" {
  description = "EKS worker nodes per region."
  type        = number
  default     = 2
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
