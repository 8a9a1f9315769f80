################################################################################
# Versions
################################################################################

# Local state on purpose: this root creates the bucket every other state lives in. Its own state
# holds no secret (a bucket, a key id); keep terraform.tfstate with the operator's files.
terraform {
  required_version = ">= 1.8"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 6.0"
    }
  }
}

provider "aws" {
  region = var.region

  default_tags {
    tags = { Project = "broker", ManagedBy = "terraform" }
  }
}
