package report

import "loganalyze/rules"

// findingTemplate writes a finding's title and advice in one language
// from its key and evidence; ok is false when the finding lacks a field
// the template needs.
type findingTemplate func(m printer, f *rules.Finding) (title, advice string, ok bool)

// findingTemplates are, per language, the templates of each rule ID.
// The rules write their titles and advice in English, for the JSON
// report and the English ones.
var findingTemplates = map[Lang]map[string]findingTemplate{}

// finding is f's title and advice in m's language: the rule's template,
// else the English the rule wrote (never empty).
func (p printer) finding(f *rules.Finding) (title, advice string) {
	if tmpl := findingTemplates[p.lang][f.Rule]; tmpl != nil {
		if title, advice, ok := tmpl(p, f); ok {
			return title, advice
		}
	}
	return f.Title, f.Advice
}

// reasonPattern turns a reason a rule gives for not being evaluated
// into a message: the reason's text after prefix (and before suffix)
// fills the message's %s.
type reasonPattern struct {
	prefix, suffix string
	id             msgID
}

// reasonPatterns are the not-evaluated reasons the rules give.
var reasonPatterns = []reasonPattern{
	{"needs --state", "", "reason.state"},
	{"no previous hour in the state directory", "", "reason.noprevious"},
	{"the previous hour's state file is damaged", "", "reason.damaged"},
	{"field ", " is absent from every record", "reason.field"},
	{"fields ", " are absent from every record", "reason.fields"},
	{"partly: minutes before ", " were not judged, the log holding more key × minute buckets than kept (the latest are)", "reason.partly"},
}

// reason is a rule's not-evaluated reason in m's language; a reason of
// no known pattern is shown as the rule gave it.
func (p printer) reason(s string) string {
	if p.lang == LangEn {
		return s
	}
	for _, rp := range reasonPatterns {
		if len(s) < len(rp.prefix)+len(rp.suffix) || s[:len(rp.prefix)] != rp.prefix || s[len(s)-len(rp.suffix):] != rp.suffix {
			continue
		}
		rest := s[len(rp.prefix) : len(s)-len(rp.suffix)]
		if rp.suffix == "" {
			return p.t(rp.id) + rest // the detail, as " (2026-11-29T09)"
		}
		return p.f(rp.id, rest)
	}
	return s
}
