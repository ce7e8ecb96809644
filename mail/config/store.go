package config

import (
	"crypto/x509"
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/store/backend"
)

// Store is where the games are kept (store:), when not in the bbolt file
// of the data directory. It is written as one string, a postgres:// URL
// or a directory (bolt:DIR too), or as a mapping with url:, the password
// (password:, password_file: or password_env:), tls: (disable, require,
// verify-ca or verify-full, as PostgreSQL's sslmode; verify-full by
// default, disable for a loopback host) and ca_file:. A password inside
// the URL is refused: it would end up in logs and in ps.
type Store struct {
	URL      string `yaml:"url"`
	Password Secret `yaml:",inline"`
	TLS      string `yaml:"tls"`
	// CAFile is a PEM file of the certificates to trust for the database
	// server instead of the system's roots.
	CAFile string `yaml:"ca_file"`

	// Roots is what CAFile holds, read when the file was loaded.
	Roots *x509.CertPool `yaml:"-"`
	// mapping is whether it was written as a mapping, for positions.
	mapping bool
}

// storeFields is Store without its UnmarshalYAML, to decode a mapping
// strictly.
type storeFields Store

// UnmarshalYAML reads a string (the URL or directory) or a mapping.
func (s *Store) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		s.URL = n.Value
		return nil
	case yaml.MappingNode:
		var f storeFields
		if err := yamlx.Decode(n, &f); err != nil {
			return err
		}
		*s = Store(f)
		s.mapping = true
		return nil
	}
	return &yamlx.Error{Line: n.Line, Column: n.Column, Code: yamlx.CodeType,
		Msg: "store: give a postgres:// URL or a directory, or a mapping with url: and password_file:"}
}

// Spec is the store the configuration names: the store: section, or else
// the bbolt file in the data directory.
func (c *Config) Spec() backend.Spec {
	if c.Store.URL == "" {
		return backend.Bolt(c.Data)
	}
	return backend.Spec{Where: c.Store.URL, Password: c.Store.Password.Value(), TLS: c.Store.TLS, CAFile: c.Store.CAFile, Roots: c.Store.Roots}
}

// store checks the store: section; relative directories and files are
// taken from the configuration file's directory.
func (v *validator) store(s *Store) {
	if s.URL == "" {
		if s.mapping {
			v.fail("store", "store: give url: (postgres://USER@HOST/DATABASE, or a directory for a bbolt file)")
		}
		return
	}
	at := func(field string) string {
		if s.mapping {
			return "store." + field
		}
		return "store"
	}
	spec := backend.Spec{Where: s.URL, TLS: s.TLS}
	if spec.Kind() == backend.KindBolt && !strings.Contains(s.URL, "://") {
		s.URL = "bolt:" + v.path(strings.TrimPrefix(s.URL, "bolt:"))
		spec.Where = s.URL
	}
	if val, ok := v.secret("store", s.Password.Inline, s.Password.File, s.Password.Env, "password"); ok {
		s.Password.Set(val)
		spec.Password = val
	}
	if s.CAFile != "" {
		spec.CAFile = s.CAFile
		if spec.Kind() == backend.KindPostgres {
			// Checked before the file is read: a ca_file where no
			// certificate is checked is the mistake to report.
			if err := spec.Check(); err != nil {
				v.specFail(at, err)
				return
			}
			s.Roots = v.certPool(at("ca_file"), s.CAFile)
			spec.Roots = s.Roots
		}
	}
	if err := spec.Check(); err != nil {
		v.specFail(at, err)
	}
}

func (v *validator) specFail(at func(string) string, err error) {
	var se *backend.SpecError
	if errors.As(err, &se) {
		msg := se.Msg
		if !strings.HasPrefix(msg, se.Field+":") {
			msg = fmt.Sprintf("%s: %s", at(se.Field), msg)
		} else if at(se.Field) != "store" {
			msg = "store." + msg
		} else {
			msg = "store: " + msg
		}
		v.fail(at(se.Field), "%s", msg)
		return
	}
	v.fail(at("url"), "store: %v", err)
}
