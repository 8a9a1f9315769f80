################################################################################
# Regions model -> plan (pure logic, tested offline with terraform test)
################################################################################

module "plan" {
  source = "../../modules/regions-plan"

  regions_yaml       = file(var.regions_file)
  base_cidr          = var.base_cidr
  instance_types     = var.instance_types
  eks_nodes          = var.eks_nodes
  single_nat_gateway = var.single_nat_gateway
}

################################################################################
# The data CA: every Cassandra node's certificate and every region's Kafka broker's are signed by it
################################################################################

resource "tls_private_key" "data_ca" {
  algorithm   = "ECDSA"
  ecdsa_curve = "P256"
}

resource "tls_self_signed_cert" "data_ca" {
  private_key_pem       = tls_private_key.data_ca.private_key_pem
  is_ca_certificate     = true
  validity_period_hours = 24 * 365 * 3
  allowed_uses          = ["cert_signing", "crl_signing"]
  subject {
    common_name  = "${var.name} data CA"
    organization = var.name
  }
}

################################################################################
# One region module per region of the file
################################################################################

module "region" {
  source   = "../../modules/region"
  for_each = module.plan.regions

  region               = each.key
  name                 = var.name
  plan                 = each.value
  seeds                = module.plan.seeds
  cross_region_ingress = module.plan.cross_region_ingress[each.key]
  instance_types       = var.instance_types
  eks_nodes            = var.eks_nodes
  single_nat_gateway   = var.single_nat_gateway
  data_ca = {
    cert_pem        = tls_self_signed_cert.data_ca.cert_pem
    private_key_pem = tls_private_key.data_ca.private_key_pem
  }
  dns = {
    zone_id  = var.dns_zone_id
    api_name = var.api_name
  }
  eks_admin_principal_arns = var.eks_admin_principal_arns
  eks_public_access_cidrs  = var.eks_public_access_cidrs
  tags                     = var.tags
}

################################################################################
# Between regions: a full mesh of VPC peering connections
################################################################################

module "peering" {
  source   = "../../modules/peering"
  for_each = module.plan.peering_pairs

  requester = {
    region          = each.value.requester
    vpc_id          = module.region[each.value.requester].vpc_id
    vpc_cidr        = module.region[each.value.requester].vpc_cidr
    route_table_ids = module.region[each.value.requester].private_route_table_ids
  }
  accepter = {
    region          = each.value.accepter
    vpc_id          = module.region[each.value.accepter].vpc_id
    vpc_cidr        = module.region[each.value.accepter].vpc_cidr
    route_table_ids = module.region[each.value.accepter].private_route_table_ids
  }
  tags = var.tags
}
