################################################################################
# Versions
################################################################################

# No provider at all: this module is pure logic over the regions model, so `terraform test` runs it
# on a machine that cannot download any provider. 1.8 is the floor of the checks (see
# terraform/bin/install-tools); it has .tftest.hcl, expect_failures and provider-defined functions.
terraform {
  required_version = ">= 1.8"
}
