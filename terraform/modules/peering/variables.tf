################################################################################
# The two VPCs
################################################################################

variable "requester" {
  description = "The VPC that requests the peering (the earlier region of the regions file): region, VPC id and CIDR, and its private route tables by AZ index."
  type = object({
    region          = string
    vpc_id          = string
    vpc_cidr        = string
    route_table_ids = map(string)
  })
}

variable "accepter" {
  description = "The VPC that accepts it (the later region), same fields as requester."
  type = object({
    region          = string
    vpc_id          = string
    vpc_cidr        = string
    route_table_ids = map(string)
  })

  validation {
    condition     = can(cidrhost(var.accepter.vpc_cidr, 0))
    error_message = "accepter.vpc_cidr must be a CIDR block."
  }
}

variable "tags" {
  description = "Tags added to the peering connection."
  type        = map(string)
  default     = {}
}
