################################################################################
# Versions
################################################################################

# Renders modules/region's cloud-init templates without a provider, so terraform test can check
# them offline (the region module itself needs the AWS provider).
terraform {
  required_version = ">= 1.8"
}
