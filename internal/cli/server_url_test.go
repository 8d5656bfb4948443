package cli

import "testing"

func TestServerURL(t *testing.T) {
	for _, tc := range []struct {
		in   string
		tls  bool
		want string
		err  bool
	}{
		{"127.0.0.1:9210", false, "http://127.0.0.1:9210", false},
		{"localhost:9210", true, "https://localhost:9210", false},
		{"http://127.0.0.1:9210/", false, "http://127.0.0.1:9210", false},
		{"https://h:1", false, "https://h:1", false},
		{"ftp://h:1", false, "", true},
		{"", false, "", true},
	} {
		got, err := ServerURL(tc.in, tc.tls)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ServerURL(%q, %v) = %q, %v; want %q (error %v)", tc.in, tc.tls, got, err, tc.want, tc.err)
		}
	}
}
