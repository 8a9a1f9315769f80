# tflint for terraform/: the bundled terraform ruleset with every rule on (documented and typed
# variables and outputs, naming convention, standard module structure, unused declarations,
# required versions and providers). The AWS ruleset is not served by the Go module proxy.
config {
  call_module_type = "local"
}

plugin "terraform" {
  enabled = true
  preset  = "all"
}
