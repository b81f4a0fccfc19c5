package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// The completion scripts ask the binary itself for the candidates
// (urfave/cli answers a command line ending in --generate-bash-completion
// with the subcommands, or with the flags when the word being completed
// starts with "-"), so they never go stale as commands and flags change.
const bashCompletion = `# bash completion for specbridge; load it with
#   source <(specbridge completion bash)
_specbridge_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}"
  local -a words=("${COMP_WORDS[@]:0:COMP_CWORD}")
  [[ $cur == -* ]] && words+=("$cur")
  local IFS=$'\n'
  COMPREPLY=($(compgen -W "$("${words[@]}" --generate-bash-completion 2>/dev/null)" -- "$cur"))
}
complete -o bashdefault -o default -F _specbridge_complete specbridge
`

const zshCompletion = `#compdef specbridge
# zsh completion for specbridge; load it with
#   source <(specbridge completion zsh)
# or save it as _specbridge in a directory of $fpath.
_specbridge() {
  local cur=${words[CURRENT]}
  local -a cmd opts
  cmd=(${words[1,CURRENT-1]})
  [[ $cur == -* ]] && cmd+=($cur)
  opts=("${(@f)$(_CLI_ZSH_AUTOCOMPLETE_HACK=1 ${cmd[@]} --generate-bash-completion 2>/dev/null)}")
  if [[ -n ${opts[1]} ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
if (( $+functions[compdef] )); then compdef _specbridge specbridge; fi
`

// completionCommand is `specbridge completion bash|zsh|fish`.
func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script: bash, zsh or fish",
		ArgsUsage: "SHELL",
		Description: "bash:  source <(specbridge completion bash)   (or save it in /etc/bash_completion.d/)\n" +
			"zsh:   source <(specbridge completion zsh)    (or save it as _specbridge in a directory of $fpath)\n" +
			"fish:  specbridge completion fish > ~/.config/fish/completions/specbridge.fish",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError(c, "completion: want one SHELL: bash, zsh or fish")
			}
			var script string
			switch sh := c.Args().First(); sh {
			case "bash":
				script = bashCompletion
			case "zsh":
				script = zshCompletion
			case "fish":
				s, err := c.App.ToFishCompletion()
				if err != nil {
					return err
				}
				script = strings.TrimRight(s, "\n") + "\n"
			default:
				return usageError(c, "completion %q: want bash, zsh or fish%s", sh, didYouMean(sh, []string{"bash", "zsh", "fish"}))
			}
			_, err := fmt.Fprint(c.App.Writer, script)
			return err
		},
	}
}
