################################################################################
# Regions model
################################################################################

variable "regions_file" {
  description = "The regions model to plan (default: the repository's)."
  type        = string
  default     = "../../../infra/regions.yaml"
}

variable "instance_types" {
  description = "EC2 instance types, as in examples/multi-region; cassandra applies only to regions whose entry in the regions file has no cassandra-instance-type."
  type = object({
    cassandra     = optional(string, "m6i.large")
    kafka         = optional(string, "t3.medium")
    elasticsearch = optional(string, "t3.large")
    eks_node      = optional(string, "m6i.large")
  })
  default = {}
}

variable "images" {
  description = "The images by digest, as in examples/multi-region (its image_registry and image_digests); empty keeps the overlays' image names."
  type = object({
    broker_service = optional(string)
    ticker_feed    = optional(string)
  })
  default = {}
}
