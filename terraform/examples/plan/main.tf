################################################################################
# Regions model -> plan
################################################################################

module "plan" {
  source = "../../modules/regions-plan"

  regions_yaml   = file(var.regions_file)
  instance_types = var.instance_types
  images         = var.images
}
