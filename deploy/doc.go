// Package deploy holds the tests of the deployment files: the Dockerfile's
// static build, the Kubernetes manifests decoded strictly into their API
// types, and the systemd units. It is a module of its own, so that
// k8s.io/api never enters the main module's go.mod and the main module's
// go test ./... does not run these tests.
package deploy
