################################################################################
# Encryption: a key of the state's own (the state holds every private key and password of the deployment)
################################################################################

data "aws_caller_identity" "this" {}

data "aws_iam_policy_document" "kms" {
  #checkov:skip=CKV_AWS_109:a KMS key policy's resource is always "*" (the key itself); this is AWS's default statement delegating to the account's IAM policies
  #checkov:skip=CKV_AWS_111:same as CKV_AWS_109
  #checkov:skip=CKV_AWS_356:same as CKV_AWS_109
  statement {
    sid       = "AccountAdministers"
    actions   = ["kms:*"]
    resources = ["*"]
    principals {
      type        = "AWS"
      identifiers = ["arn:aws:iam::${data.aws_caller_identity.this.account_id}:root"]
    }
  }
}

resource "aws_kms_key" "this" {
  region                  = var.region
  description             = "Terraform state in s3://${var.bucket_name}"
  enable_key_rotation     = true
  deletion_window_in_days = var.kms_deletion_window_days
  policy                  = data.aws_iam_policy_document.kms.json
  tags                    = var.tags
}

resource "aws_kms_alias" "this" {
  region        = var.region
  name          = "alias/${replace(var.bucket_name, ".", "-")}" # aliases take no dots
  target_key_id = aws_kms_key.this.key_id
}

################################################################################
# Bucket: versioned, KMS-encrypted, private, TLS only
################################################################################

resource "aws_s3_bucket" "this" {
  #checkov:skip=CKV_AWS_18:server access logs need a second bucket; who read or wrote the state is in CloudTrail (S3 data events when enabled for the account)
  #checkov:skip=CKV_AWS_144:cross-region replication of the state is an organisation's choice; versioning keeps every earlier state for 90 days
  #checkov:skip=CKV2_AWS_62:nothing reacts to state writes; event notifications would have no consumer
  region        = var.region
  bucket        = var.bucket_name
  force_destroy = false # never delete the state with the bucket: empty it by hand first
  tags          = var.tags
}

resource "aws_s3_bucket_ownership_controls" "this" {
  region = var.region
  bucket = aws_s3_bucket.this.id

  rule {
    object_ownership = "BucketOwnerEnforced" # no ACLs: the bucket policy and IAM decide
  }
}

resource "aws_s3_bucket_public_access_block" "this" {
  region                  = var.region
  bucket                  = aws_s3_bucket.this.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

# Every write of the state is a new version: a broken apply or a deleted state is recovered by
# restoring the previous version.
resource "aws_s3_bucket_versioning" "this" {
  region = var.region
  bucket = aws_s3_bucket.this.id

  versioning_configuration {
    status = "Enabled"
  }
}

resource "aws_s3_bucket_server_side_encryption_configuration" "this" {
  region = var.region
  bucket = aws_s3_bucket.this.id

  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm     = "aws:kms"
      kms_master_key_id = aws_kms_key.this.arn
    }
    bucket_key_enabled = true # one KMS request per bucket key, not per object operation
  }
}

data "aws_iam_policy_document" "bucket" {
  statement {
    sid       = "DenyInsecureTransport"
    effect    = "Deny"
    actions   = ["s3:*"]
    resources = [aws_s3_bucket.this.arn, "${aws_s3_bucket.this.arn}/*"]
    principals {
      type        = "*"
      identifiers = ["*"]
    }
    condition {
      test     = "Bool"
      variable = "aws:SecureTransport"
      values   = ["false"]
    }
  }
}

resource "aws_s3_bucket_policy" "this" {
  region     = var.region
  bucket     = aws_s3_bucket.this.id
  policy     = data.aws_iam_policy_document.bucket.json
  depends_on = [aws_s3_bucket_public_access_block.this]
}

# Old versions of the state (and the lock files S3 native locking leaves as versions) go after
# var.noncurrent_version_days; the current state never expires.
resource "aws_s3_bucket_lifecycle_configuration" "this" {
  region = var.region
  bucket = aws_s3_bucket.this.id

  rule {
    id     = "expire-noncurrent-versions"
    status = "Enabled"

    filter {}

    noncurrent_version_expiration {
      noncurrent_days = var.noncurrent_version_days
    }

    abort_incomplete_multipart_upload {
      days_after_initiation = 7
    }
  }

  depends_on = [aws_s3_bucket_versioning.this]
}

################################################################################
# How a root uses it
################################################################################

locals {
  backend_settings = {
    bucket       = aws_s3_bucket.this.bucket
    key          = var.state_key
    region       = var.region
    encrypt      = true
    kms_key_id   = aws_kms_key.this.arn
    use_lockfile = true
  }
  backend_lines = [for k in ["bucket", "key", "region", "encrypt", "kms_key_id", "use_lockfile"] :
    format("%-12s = %s", k, jsonencode(local.backend_settings[k]))
  ]
}
