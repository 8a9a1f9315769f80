################################################################################
# Versions
################################################################################

# A root stack pins its providers; commit .terraform.lock.hcl after the first `terraform init`.
terraform {
  # 1.11: the S3 backend's native locking (use_lockfile), no DynamoDB table
  required_version = ">= 1.11"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 6.0"
    }
    random = {
      source  = "hashicorp/random"
      version = "~> 3.6" # random_bytes
    }
    tls = {
      source  = "hashicorp/tls"
      version = "~> 4.0"
    }
  }

  # Node keys, the data CA's key and every password are in the state: it lives in the encrypted,
  # versioned bucket of examples/state-backend. Partial configuration: the values come from
  # `terraform init -backend-config=backend.hcl` (see backend.hcl.example).
  backend "s3" {}
}

# One provider for every region: AWS provider 6 takes `region` on each regional resource, so the
# region module is instantiated with for_each over the regions file and a new region needs no new
# provider block. This region only hosts the global calls (IAM, Route 53, STS) and the source ECR
# repositories.
provider "aws" {
  region = var.home_region

  default_tags {
    tags = { Project = var.name, ManagedBy = "terraform" }
  }
}
