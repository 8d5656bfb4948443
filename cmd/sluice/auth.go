package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"sluice/internal/cli"
	"sluice/internal/server"
)

// remoteFlags are sql's flags for reaching a server that wants
// credentials or speaks TLS.
type remoteFlags struct {
	user, token, caCert string
}

func (f *remoteFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.user, "user", os.Getenv("SLUICE_USER"), "user for --server (password from $SLUICE_PASSWORD or a prompt)")
	fs.StringVar(&f.token, "token", os.Getenv("SLUICE_TOKEN"), "API token for --server")
	fs.StringVar(&f.caCert, "ca-cert", os.Getenv("SLUICE_CA_CERT"), "PEM certificate to trust for an https --server")
}

// remote is the client for --server: the token, else the user with
// $SLUICE_PASSWORD or one asked on the terminal.
func (f *remoteFlags) remote() (*cli.Remote, error) {
	r := &cli.Remote{Token: f.token}
	if f.caCert != "" {
		c, err := cli.TLSClient(f.caCert)
		if err != nil {
			return nil, err
		}
		r.Client = c
	}
	if f.token == "" && f.user != "" {
		r.User = f.user
		if pw, ok := os.LookupEnv("SLUICE_PASSWORD"); ok {
			r.Password = pw
		} else {
			pw, err := promptTTY("Password for " + f.user + ": ")
			if err != nil {
				return nil, fmt.Errorf("--user %s: set SLUICE_PASSWORD or run on a terminal: %w", f.user, err)
			}
			r.Password = pw
		}
	}
	return r, nil
}

// promptTTY reads a password from the controlling terminal without
// echo (stdin may be the script).
func promptTTY(prompt string) (string, error) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return "", errors.New("no terminal to ask the password on")
	}
	defer tty.Close()
	fmt.Fprint(tty, prompt)
	b, err := term.ReadPassword(int(tty.Fd()))
	fmt.Fprintln(tty)
	if err != nil {
		return "", fmt.Errorf("reading the password: %w", err)
	}
	return string(b), nil
}

// usersFlags are the flags of passwd and token.
type usersFlags struct {
	users, dataDir, role string
}

func (f *usersFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.users, "users", "", "users file (default DATA_DIR/users)")
	fs.StringVar(&f.dataDir, "data-dir", cli.DefaultDataDir(), "data directory")
	fs.StringVar(&f.role, "role", "", "read, write or admin")
}

func (f *usersFlags) path() string {
	if f.users != "" {
		return f.users
	}
	return server.DefaultUsersFile(f.dataDir)
}

// parseInterspersed parses flags before and after the one positional
// argument (`passwd alice --role admin` and `passwd --role admin alice`).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(os.Stdout, cli.Usage)
			}
			return nil, fmt.Errorf("%v (see 'sluice help')", err)
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// passwd adds a user or changes its password (and, with --role, its
// role): server.UsersFile does it; the password comes from
// server.ReadNewPassword (asked twice on a terminal, else one line of
// stdin).
func passwd(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("passwd", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f usersFlags
	f.register(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errors.New("usage: sluice passwd [--users FILE] [--role read|write|admin] USER")
	}
	role := server.RoleNone
	if f.role != "" {
		if role, err = server.ParseRole(f.role); err != nil {
			return err
		}
	}
	u, err := server.OpenUsersFile(f.path())
	if err != nil {
		return err
	}
	pw, err := server.ReadNewPassword(pos[0], stdin, stderr)
	if err != nil {
		return err
	}
	if err := u.SetPassword(pos[0], pw, role); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "user %s saved in %s\n", pos[0], u.Path())
	return nil
}

// token creates (printing it once) or revokes an API token.
func token(args []string, stdout io.Writer) error {
	const usage = "usage: sluice token create [--users FILE] --role read|write|admin NAME, or sluice token revoke [--users FILE] NAME"
	if len(args) == 0 {
		return errors.New(usage)
	}
	fs := flag.NewFlagSet("token", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f usersFlags
	f.register(fs)
	pos, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errors.New(usage)
	}
	u, err := server.OpenUsersFile(f.path())
	if err != nil {
		return err
	}
	switch args[0] {
	case "create":
		if f.role == "" {
			return errors.New("token create needs --role read, write or admin")
		}
		role, err := server.ParseRole(f.role)
		if err != nil {
			return err
		}
		tok, err := u.CreateToken(pos[0], role)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, tok)
		return nil
	case "revoke":
		if err := u.RevokeToken(pos[0]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "token %s revoked\n", pos[0])
		return nil
	}
	return errors.New(usage)
}
