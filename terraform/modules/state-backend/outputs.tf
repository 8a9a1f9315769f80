################################################################################
# Bucket
################################################################################

output "bucket" {
  description = "The state bucket's name."
  value       = aws_s3_bucket.this.bucket
}

output "bucket_arn" {
  description = "The state bucket's ARN (for the IAM policies of whoever runs Terraform)."
  value       = aws_s3_bucket.this.arn
}

output "kms_key_arn" {
  description = "The key the state is encrypted with: whoever runs Terraform needs kms:Decrypt, kms:Encrypt and kms:GenerateDataKey on it."
  value       = aws_kms_key.this.arn
}

################################################################################
# Backend configuration
################################################################################

output "backend_config" {
  description = "The contents of a backend.hcl for `terraform init -backend-config=backend.hcl` in a root with `backend \"s3\" {}` (S3 native locking, Terraform >= 1.11)."
  value       = "${join("\n", local.backend_lines)}\n"
}

output "backend_block" {
  description = "A ready-to-paste backend block with the same settings, for a root that configures its backend in full."
  value       = "terraform {\n  backend \"s3\" {\n${join("\n", [for line in local.backend_lines : "    ${line}"])}\n  }\n}\n"
}
