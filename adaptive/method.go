package adaptive

import (
	"context"
	"errors"
	"fmt"

	"github.com/aer-go/aer/learn"
)

// Names the AER methods are registered under.
const (
	MethodName          = "aer"
	DynamicEnsembleName = "dynens"
)

// Method is AER on the learn contract: its parameters are Config's, the
// members' as member.KEY and the peers' as peer.NAME.KEY (Config.Set),
// Fit calls Fit with the Env, and Load reads the payload of
// Model.MarshalBinary.
type Method struct {
	name string
	cfg  Config
	// locked is set for the Dynamic Ensemble, whose lambda is fixed.
	locked bool
}

// NewMethod returns the AER method with the default configuration.
func NewMethod() learn.Method { return &Method{name: MethodName} }

// New returns the AER method (registered as aer) with the typed
// configuration cfg (zero fields mean their defaults, as for Fit), for Go
// programs: the same method as NewMethod with the parameters set from
// text. Its member and peer methods are shared with cfg until Set
// copies them.
func New(cfg Config) learn.Method { return &Method{name: MethodName, cfg: cfg} }

// NewDynamicEnsemble returns the paper's Dynamic Ensemble baseline: AER's
// members with likelihood weights only (lambda fixed at 1).
func NewDynamicEnsemble() learn.Method {
	return &Method{name: DynamicEnsembleName, cfg: *dynamicEnsembleConfig(), locked: true}
}

// dynamicEnsembleConfig is the Dynamic Ensemble's default configuration:
// the paper's method with lambda fixed at 1.
func dynamicEnsembleConfig() *Config { return &Config{DynamicEnsemble: true, Preset: PresetPaper} }

// Name returns the registered name.
func (m *Method) Name() string { return m.name }

// Describe returns a one-line description.
func (m *Method) Describe() string {
	if m.locked {
		return "the paper's Dynamic Ensemble baseline: AER members with likelihood weights only (lambda = 1)"
	}
	return "the AER adaptive ensemble (mixture subsets, boosted members, static and likelihood weights)"
}

// Config returns a copy of the configuration (its member and peer
// methods shared: set them through Set, which copies them first).
func (m *Method) Config() Config { return m.cfg }

// Set sets one parameter (see Config.Set). The Dynamic Ensemble refuses
// dynamic_ensemble=false rather than silently overriding it.
func (m *Method) Set(key, value string) error {
	c := m.cfg
	if err := c.Set(key, value); err != nil {
		return err
	}
	if m.locked && !c.DynamicEnsemble {
		return fmt.Errorf("%w: dynamic_ensemble=%s: %s is the Dynamic Ensemble (lambda = 1); use --method %s for AER", learn.ErrParam, value, m.name, MethodName)
	}
	m.cfg = c
	return nil
}

// Params lists AER's parameters and its members'. The Dynamic
// Ensemble's default, and only value, of dynamic_ensemble is true.
func (m *Method) Params() []learn.Param {
	if m.locked {
		return m.cfg.listAgainst(dynamicEnsembleConfig())
	}
	return m.cfg.List()
}

// Fit trains an AER model (see Fit).
func (m *Method) Fit(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
	if err := m.cfg.Check(); err != nil {
		return nil, fmt.Errorf("%w: %v", learn.ErrParam, err)
	}
	if valid == nil {
		env.Log().Info("no validation data: lambda and delta are tuned on a stratified share of the training rows held out (--param holdout=F)")
	}
	model, _, err := Fit(ctx, train, valid, &m.cfg, env)
	if err != nil {
		return nil, err
	}
	return model, nil
}

// Load decodes a model written by Model.MarshalBinary.
func (m *Method) Load(payload []byte) (learn.Scorer, error) {
	model, err := Load(payload)
	if err != nil {
		return nil, err
	}
	if m.locked && !model.config.DynamicEnsemble {
		return nil, errors.New("aer: the payload's dynamic_ensemble setting does not match the method " + m.name)
	}
	return model, nil
}
