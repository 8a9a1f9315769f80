################################################################################
# One node of each kind, as modules/region renders it
################################################################################

variable "seeds" {
  description = "Cassandra seeds (node 1 of every DC)."
  type        = list(string)
  default     = ["10.64.192.10", "10.65.192.10"]
}

variable "ca_cert_pem" {
  description = "A PEM certificate standing in for the data CA (Cassandra and Kafka)."
  type        = string
  default     = "-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n"
}
