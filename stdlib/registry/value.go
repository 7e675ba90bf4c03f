package registry

import (
	"strconv"
	"strings"
)

// Value is a parameter's default, held as a value rather than as .bo source
// to be parsed: a number, a string, learn, or a plugin (a kernel or a
// distribution) called with named arguments. The zero Value is no default:
// the parameter is required.
type Value struct {
	Kind ValueKind
	// Number is a RealValue's or IntValue's value.
	Number float64
	// Text is a StringValue's string, or a PluginValue's plugin name.
	Text string
	// Args are a PluginValue's named arguments.
	Args []NamedValue
}

// ValueKind says what a Value holds.
type ValueKind int

const (
	NoValue     ValueKind = iota // required: no default
	RealValue                    // a real number
	IntValue                     // an integer
	StringValue                  // a string
	LearnValue                   // learn, with the parameter's default bounds
	PluginValue                  // a plugin called with named arguments
)

// NamedValue is one named argument of a PluginValue.
type NamedValue struct {
	Name  string
	Value Value
}

// Real is the default x.
func Real(x float64) Value { return Value{Kind: RealValue, Number: x} }

// Int is the default n.
func Int(n int) Value { return Value{Kind: IntValue, Number: float64(n)} }

// String is the default s.
func String(s string) Value { return Value{Kind: StringValue, Text: s} }

// Learn is the default learn: the value is fitted to the data.
func Learn() Value { return Value{Kind: LearnValue} }

// Call is the default plugin name called with args (none: the bare name).
func Call(name string, args ...NamedValue) Value {
	return Value{Kind: PluginValue, Text: name, Args: args}
}

// Named is the argument name = v of a Call.
func Named(name string, v Value) NamedValue { return NamedValue{Name: name, Value: v} }

// IsSet reports whether v is a default, not the zero Value.
func (v Value) IsSet() bool { return v.Kind != NoValue }

// String renders v as .bo source, for listings and hints: 1, 0.1, "fixed",
// learn, rqmix(variance = 1). The zero Value renders as "".
func (v Value) String() string {
	switch v.Kind {
	case RealValue, IntValue:
		return strconv.FormatFloat(v.Number, 'g', -1, 64)
	case StringValue:
		return strconv.Quote(v.Text)
	case LearnValue:
		return "learn"
	case PluginValue:
		if len(v.Args) == 0 {
			return v.Text
		}
		args := make([]string, len(v.Args))
		for i, a := range v.Args {
			args[i] = a.Name + " = " + a.Value.String()
		}
		return v.Text + "(" + strings.Join(args, ", ") + ")"
	}
	return ""
}
