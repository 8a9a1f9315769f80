################################################################################
# Versions
################################################################################

# No provider: `terraform init && terraform apply` runs anywhere, offline, and prints the plan.
terraform {
  required_version = ">= 1.8"
}
