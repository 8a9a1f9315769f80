################################################################################
# Versions
################################################################################

# A root stack pins its providers; commit .terraform.lock.hcl after the first `terraform init`.
terraform {
  required_version = ">= 1.8"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 6.0"
    }
    tls = {
      source  = "hashicorp/tls"
      version = "~> 4.0"
    }
  }

  # Node keys and the cluster CA are in the state: keep it in an encrypted, locked backend, e.g.
  # backend "s3" { bucket = "...", key = "broker/terraform.tfstate", region = "us-east-1", encrypt = true, use_lockfile = true }
}

# One provider for every region: AWS provider 6 takes `region` on each regional resource, so the
# region module is instantiated with for_each over the regions file and a new region needs no new
# provider block. This region only hosts the global calls (IAM, Route 53, STS).
provider "aws" {
  region = var.home_region

  default_tags {
    tags = { Project = var.name, ManagedBy = "terraform" }
  }
}
