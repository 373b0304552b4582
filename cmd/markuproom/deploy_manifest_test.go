package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/markuproom/markuproom/models/blob"
)

// k8sObject is what the test reads of the sample manifest's objects.
type k8sObject struct {
	Kind string `yaml:"kind"`
	Spec struct {
		Replicas int `yaml:"replicas"`
		Template struct {
			Spec struct {
				TerminationGracePeriodSeconds int `yaml:"terminationGracePeriodSeconds"`
				Containers                    []struct {
					Env []struct {
						Name      string `yaml:"name"`
						Value     string `yaml:"value"`
						ValueFrom *struct {
							SecretKeyRef *struct {
								Name string `yaml:"name"`
								Key  string `yaml:"key"`
							} `yaml:"secretKeyRef"`
						} `yaml:"valueFrom"`
					} `yaml:"env"`
					ReadinessProbe struct {
						HTTPGet struct {
							Path string `yaml:"path"`
						} `yaml:"httpGet"`
					} `yaml:"readinessProbe"`
					LivenessProbe struct {
						HTTPGet struct {
							Path string `yaml:"path"`
						} `yaml:"httpGet"`
					} `yaml:"livenessProbe"`
				} `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// TestKubernetesSampleMatchesTheTestedSetup keeps docs/deploy/kubernetes.yaml
// in the shape TestTwoInstancesShareOnePostgreSQLAndOneS3Bucket runs: several
// replicas on PostgreSQL, an s3:// bucket, one session secret, SMTP; every
// variable it sets is one the server reads (or the AWS SDK's), the secrets
// come from a Secret by reference, its configuration loads without error and
// its bucket URL opens with gocloud.dev (no request is made at open).
func TestKubernetesSampleMatchesTheTestedSetup(t *testing.T) {
	b, err := os.ReadFile("../../docs/deploy/kubernetes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	kinds := map[string]k8sObject{}
	for {
		var o k8sObject
		if err := dec.Decode(&o); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		kinds[o.Kind] = o
	}
	d, ok := kinds["Deployment"]
	if _, svc := kinds["Service"]; !ok || !svc || len(kinds) != 2 {
		t.Fatalf("the sample has %v, want a Deployment and a Service", kinds)
	}
	if d.Spec.Replicas < 2 {
		t.Errorf("replicas: %d, want several (the tested setup runs two)", d.Spec.Replicas)
	}
	pod := d.Spec.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers", len(pod.Containers))
	}
	c := pod.Containers[0]
	if time.Duration(pod.TerminationGracePeriodSeconds)*time.Second <= shutdownGrace {
		t.Errorf("terminationGracePeriodSeconds %d leaves requests in flight no %s to finish", pod.TerminationGracePeriodSeconds, shutdownGrace)
	}
	if c.ReadinessProbe.HTTPGet.Path != "/readyz" || c.LivenessProbe.HTTPGet.Path != "/healthz" {
		t.Errorf("probes: readiness %q, liveness %q", c.ReadinessProbe.HTTPGet.Path, c.LivenessProbe.HTTPGet.Path)
	}

	env := map[string]string{}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && e.Value == "":
			env[e.Name] = "from-secret-" + e.ValueFrom.SecretKeyRef.Key + "-" + strings.Repeat("x", 32)
		case e.ValueFrom == nil:
			env[e.Name] = e.Value
		default:
			t.Errorf("%s: neither a value nor a Secret reference", e.Name)
		}
	}
	for _, name := range []string{"DATABASE_URL", "MARKUPROOM_SESSION_SECRET", "MARKUPROOM_SECRET_KEY", "MARKUPROOM_SMTP_URL", "AWS_SECRET_ACCESS_KEY"} {
		if !strings.HasPrefix(env[name], "from-secret-") {
			t.Errorf("%s is not read from a Secret", name)
		}
	}
	// What the two instances of the process test share.
	if !strings.HasPrefix(env["MARKUPROOM_BLOB_URL"], "s3://") || !strings.HasPrefix(env["MARKUPROOM_BASE_URL"], "https://") || env["MARKUPROOM_TRUSTED_PROXIES"] == "" {
		t.Errorf("bucket %q, base URL %q, trusted proxies %q", env["MARKUPROOM_BLOB_URL"], env["MARKUPROOM_BASE_URL"], env["MARKUPROOM_TRUSTED_PROXIES"])
	}

	// Every variable is one the server reads (or the AWS SDK's), and the configuration loads.
	env["DATABASE_URL"] = "postgres://markuproom:pw@postgres:5432/markuproom?sslmode=require"
	env["MARKUPROOM_SMTP_URL"] = "smtp://user:pw@smtp.example.com:587"
	env["MARKUPROOM_SECRET_KEY"] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
	read := map[string]bool{}
	cfg, err := loadConfig(func(k string) string { read[k] = true; return env[k] })
	if err != nil {
		t.Fatalf("the sample's configuration: %v", err)
	}
	for name := range env {
		if !read[name] && !strings.HasPrefix(name, "AWS_") {
			t.Errorf("%s is not a variable the server reads", name)
		}
	}
	for _, name := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"} {
		t.Setenv(name, env[name])
	}
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
	bucket, err := blob.Open(context.Background(), cfg.BlobURL)
	if err != nil {
		t.Fatalf("MARKUPROOM_BLOB_URL %q: %v", cfg.BlobURL, err)
	}
	_ = bucket.Close()
}
