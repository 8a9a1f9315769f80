################################################################################
# Bucket
################################################################################

variable "region" {
  description = "Where the state bucket lives (the multi-region root's home region is a good choice)."
  type        = string
  default     = "us-east-1"
}

variable "bucket_name" {
  description = "A globally unique bucket name, e.g. broker-terraform-state-<account id>."
  type        = string
}

variable "state_key" {
  description = "The object key of examples/multi-region's state."
  type        = string
  default     = "broker/multi-region.tfstate"
}

variable "tags" {
  description = "Extra tags for the bucket and its key."
  type        = map(string)
  default     = {}
}
