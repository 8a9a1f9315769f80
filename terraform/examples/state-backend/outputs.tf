################################################################################
# For examples/multi-region
################################################################################

output "bucket" {
  description = "The state bucket."
  value       = module.state_backend.bucket
}

output "backend_config" {
  description = "backend.hcl for examples/multi-region: terraform output -raw backend_config > ../multi-region/backend.hcl"
  value       = module.state_backend.backend_config
}

output "backend_block" {
  description = "The same settings as a backend block."
  value       = module.state_backend.backend_block
}
