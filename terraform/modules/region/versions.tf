################################################################################
# Versions
################################################################################

# AWS provider 6: every regional resource takes a `region` argument, so one provider serves every
# region and the root can instantiate this module with for_each over the regions model (see
# terraform/README.md, "One provider, many regions").
terraform {
  required_version = ">= 1.8"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 6.0"
    }
    random = {
      source  = "hashicorp/random"
      version = ">= 3.6"
    }
    tls = {
      source  = "hashicorp/tls"
      version = ">= 4.0"
    }
  }
}
