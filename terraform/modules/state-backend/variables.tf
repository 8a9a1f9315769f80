################################################################################
# Bucket
################################################################################

variable "region" {
  description = "The AWS region of the bucket and its KMS key (provider 6's per-resource region)."
  type        = string

  validation {
    condition     = can(regex("^[a-z]{2}(-gov)?-[a-z]+-[0-9]$", var.region))
    error_message = "region must be an AWS region id such as us-east-1."
  }
}

variable "bucket_name" {
  description = "The state bucket's name, globally unique (e.g. broker-terraform-state-<account id>); also the KMS key's alias."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", var.bucket_name)) && !strcontains(var.bucket_name, "..")
    error_message = "bucket_name must be a valid S3 bucket name: 3-63 lowercase letters, digits, dots or hyphens."
  }
}

variable "state_key" {
  description = "The object key of the state in the bucket, written into the backend configuration outputs."
  type        = string
  default     = "broker/multi-region.tfstate"
}

variable "noncurrent_version_days" {
  description = "Days an earlier version of the state is kept after a newer one replaced it."
  type        = number
  default     = 90

  validation {
    condition     = var.noncurrent_version_days >= 1
    error_message = "noncurrent_version_days must be at least 1."
  }
}

variable "kms_deletion_window_days" {
  description = "Waiting period before the KMS key is deleted once scheduled for deletion (7 to 30 days)."
  type        = number
  default     = 30

  validation {
    condition     = var.kms_deletion_window_days >= 7 && var.kms_deletion_window_days <= 30
    error_message = "kms_deletion_window_days must be 7 to 30."
  }
}

variable "tags" {
  description = "Tags added to the bucket and the key."
  type        = map(string)
  default     = {}
}
