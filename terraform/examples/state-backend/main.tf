################################################################################
# The Terraform state bucket of examples/multi-region (this root keeps its own state locally)
################################################################################

module "state_backend" {
  source = "../../modules/state-backend"

  region      = var.region
  bucket_name = var.bucket_name
  state_key   = var.state_key
  tags        = var.tags
}
