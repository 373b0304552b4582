// Command markuproom runs the Markup Room server and its operator commands.
//
//	markuproom [serve]       run the server (the default)
//	markuproom migrate       apply pending database migrations
//	markuproom org create    --name NAME [--api-enabled=false] [--json]
//	markuproom org update    ORG_ID --embed-origins https://a,https://b [--json]
//	markuproom user create   --org ORG_ID --email E --first-name F --last-name L [--admin] [--password-stdin] [--json]
//	markuproom token create  --org ORG_ID [--name N] [--json]
//	markuproom token revoke  TOKEN_ID [--json]
//	markuproom audit verify  [--org ORG_ID] [--json]
//	markuproom room create   --org ORG_ID --sender USER_ID [--document FILE]… [--participant "First Last <email>"]… [--template ID] [--locale TAG] [--embed-origin ORIGIN] [--json]
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"os/user"
	"syscall"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/pdfjob"
	"github.com/markuproom/markuproom/models/pdfworker"
)

func main() {
	// Started by the server as a PDF worker: serve jobs, never the rest.
	pdfjob.ServeIfWorker()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command and returns the process exit code:
// 0 success, 1 failure, 2 bad usage or configuration.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := &cliEnv{getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		return env.serve(ctx, nil)
	}
	switch args[0] {
	case "serve":
		return env.serve(ctx, args[1:])
	case "migrate":
		return env.migrate(ctx, args[1:])
	case "org":
		return env.sub(ctx, "org", args[1:], map[string]command{"create": env.orgCreate, "update": env.orgUpdate})
	case "user":
		return env.sub(ctx, "user", args[1:], map[string]command{"create": env.userCreate})
	case "token":
		return env.sub(ctx, "token", args[1:], map[string]command{"create": env.tokenCreate, "revoke": env.tokenRevoke})
	case "audit":
		return env.sub(ctx, "audit", args[1:], map[string]command{"verify": env.auditVerify})
	case "room":
		return env.sub(ctx, "room", args[1:], map[string]command{"create": env.roomCreate})
	case "pdf-worker":
		pdfworker.Main(pdfjob.Handle)
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "markuproom: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}

const usage = `Usage:
  markuproom [serve]        run the server (default)
  markuproom migrate        apply pending database migrations
  markuproom org create     --name NAME [--api-enabled=false] [--json]
  markuproom org update     ORG_ID --embed-origins https://a,https://b [--json]   origins that may frame rooms ("" for none)
  markuproom user create    --org ORG_ID --email E --first-name F --last-name L [--admin] [--password-stdin] [--json]
  markuproom token create   --org ORG_ID [--name N] [--json]
  markuproom token revoke   TOKEN_ID [--json]
  markuproom audit verify   [--org ORG_ID] [--json]   check the audit trail's hash chains (exit 1 when broken)
  markuproom pdf-worker     serve PDF jobs on standard input and output (the server starts its own workers;
                            see docs/decisions.md, "PDF workers")
  markuproom room create    --org ORG_ID --sender USER_ID [--document FILE]... [--participant "First Last <email>"]...
                            [--template ID] [--locale TAG] [--embed-origin ORIGIN] [--json]   make a Markup Room and print its URL (shown once)

Configuration comes from environment variables; see README.md.
`

// command is one operator sub-command.
type command func(ctx context.Context, args []string) int

// cliEnv is the process environment a command runs in.
type cliEnv struct {
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

func (e *cliEnv) sub(ctx context.Context, group string, args []string, cmds map[string]command) int {
	if len(args) == 0 {
		fmt.Fprintf(e.stderr, "markuproom %s: missing sub-command\n\n%s", group, usage)
		return 2
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "markuproom %s: unknown sub-command %q\n\n%s", group, args[0], usage)
		return 2
	}
	return cmd(models.WithAuditActor(ctx, e.operator(group+" "+args[0])), args[1:])
}

// operator is the audit trail's actor of an operator command: the OS login
// name ($USER, else the current user's), the command's name.
func (e *cliEnv) operator(command string) models.AuditActor {
	login := e.getenv("USER")
	if login == "" {
		if u, err := user.Current(); err == nil {
			login = u.Username
		}
	}
	return models.AuditActor{Kind: models.AuditActorOperator, ID: login, Name: "markuproom " + command, Via: "cli"}
}
