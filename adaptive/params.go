package adaptive

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/mixture"
)

// params declares AER's own parameters; the members' and peers' are in
// their own namespaces (see Config.Set).
// Bounds of AER's count parameters beyond learn's: EM restarts per
// mixture size, and principal components (at most the features).
const (
	maxRestarts = 1000
	maxPCs      = 1 << 20
)

var params = learn.ParamTable[Config]{
	enum("preset", "defaults of the parts below left unset: plus (beyond the paper) or paper (the faithful method)", presetNames, func(c *Config) *Preset { return &c.Preset }),
	triBool("pool", "pool every member setting's members into one ensemble (false: keep the best setting on validation, the paper)", func(c *Config) **bool { return &c.Pool }),
	triBool("global", "add per member setting one member trained on all rows with balanced class weights (static weight only)", func(c *Config) **bool { return &c.Global }),
	{Key: "peers", Help: "registered methods trained on all rows (at most peer_rows) and added as static-weight members, e.g. logreg,balanced-rf (none: no peers; with three or more classes the preset's svm, which scores two, is left out); their parameters are peer.NAME.KEY",
		Get: func(c *Config) string {
			if len(c.Peers) == 0 {
				return "none"
			}
			return strings.Join(methodNames(c.Peers), ",")
		},
		Set: func(c *Config, v string) error {
			peers := []learn.Method{}
			if v = strings.TrimSpace(v); v != "" && v != "none" {
				for _, name := range strings.Split(v, ",") {
					m, err := methodByName(strings.TrimSpace(name))
					if err != nil {
						return err
					}
					peers = append(peers, m)
				}
			}
			c.Peers = peers
			return nil
		}},
	enum("space", "combine the members' probabilities (the paper) or their logits", spaceNames, func(c *Config) *Space { return &c.Space }),
	enum("select", "what chooses the likelihood rule and lambda on validation: the metric at its best threshold (the paper) or ROC-AUC", selectNames, func(c *Config) *Select { return &c.Select }),
	enum("delta_rule", "the threshold: best for the metric among the candidates (the paper), or bayes: where a sigmoid calibration on validation reaches the training positive share (balanced accuracy's Bayes-optimal threshold)", deltaRuleNames, func(c *Config) *DeltaRule { return &c.DeltaRule }),
	enum("thresholds", "threshold candidates of the tuning: the delta_step grid (the paper) or fine (0.01 grid and validation quantiles)", thresholdNames, func(c *Config) *Thresholds { return &c.Thresholds }),
	{Key: "components", Help: "pool of mixture sizes L, BIC picks one: 3, 2-8 or 2,4,6",
		Get: func(c *Config) string { return formatPool(c.Components) },
		Set: func(c *Config, v string) error {
			pool, err := ParsePool(v)
			if err != nil {
				return err
			}
			c.Components = pool
			return nil
		}},
	enum("covariance", "mixture covariance; auto is full up to 32 features, diag beyond", covNames, func(c *Config) *Covariance { return &c.Covariance }),
	mixtureParam(),
	learn.Int("n_init", "EM restarts per L (the preset's: plus 1, paper 5)", 1, maxRestarts, func(c *Config) *int { return &c.NInit }),
	learn.Int("select_rows", "majority rows on which BIC compares the mixture sizes (more: a random subsample, then the chosen L refitted on all rows); -1 = all rows; 0 = the preset's (plus 3000, paper all)", -1, learn.MaxRows,
		func(c *Config) *int { return &c.SelectRows }),
	learn.Int("select_pcs", "principal components on which BIC compares the mixture sizes on tables of more than four times as many features (full covariances there; the chosen L is fitted on the features); -1 = none; 0 = the preset's (plus 16, paper none)", -1, maxPCs,
		func(c *Config) *int { return &c.SelectPCs }),
	learn.Int("mixture_rows", "majority rows the mixture is fitted on (more: a random subsample of that many; every row is still ranked); -1 = all rows; 0 = the preset's (plus 200000, paper all)", -1, learn.MaxRows,
		func(c *Config) *int { return &c.MixtureRows }),
	learn.Int("peer_rows", "training rows each peer is fitted on (more: a random subsample of that many, positives kept up to half); -1 = all rows; 0 = the preset's (plus 10000)", -1, learn.MaxRows,
		func(c *Config) *int { return &c.PeerRows }),
	learn.Int("cross_tune", "tune on the out-of-fold outputs of every training row, beside the validation rows if any, the members fitted this many more times (one fold out each); -1 = never (tune on the validation rows alone, or without them on a held-out holdout share); 0 = the preset's (plus 4, paper never)", -1, 20,
		func(c *Config) *int { return &c.CrossTune }),
	learn.Int("cross_tune_components", "folds of the component members' and the peers' refits when cross-tuning, at most cross_tune (the global members are refitted cross_tune times); -1 = as many as cross_tune; 0 = the preset's (plus 2)", -1, 20,
		func(c *Config) *int { return &c.CrossTuneComponents }),
	learn.Int("cross_tune_max_bin", "histogram bins (the member's max_bin, where it has one) of the members' cross-tuning refits, at most; -1 = the members' own; 0 = the preset's (plus 32)", -1, 256,
		func(c *Config) *int { return &c.CrossTuneMaxBin }),
	learn.Int("cross_tune_below", "with validation rows, cross-tune only while they hold fewer than this many positive rows (more: tuned on them alone, without the cross_tune more member fits); -1 = no limit; 0 = the preset's (plus 1000)", -1, learn.MaxRows,
		func(c *Config) *int { return &c.CrossTuneBelow }),
	learn.Float("fallback", "fall back on a global member or peer whose calibrated, class-balanced validation log-loss is below the ensemble's by more than this many paired standard errors; -1 = never; 0 = the preset's (plus 2, paper never)", -1, math.Inf(1),
		func(c *Config) *float64 { return &c.Fallback }),
	learn.Bool("refit_restarts", "refit the chosen L on all majority rows with n_init restarts, not one EM run from the subsample's fit (only when select_rows subsampled)", false, func(c *Config) *bool { return &c.RefitRestarts }),
	enum("rank", "how majority rows are ranked per component", rankNames, func(c *Config) *Rank { return &c.Rank }),
	learn.Float("local_random", "share of m_k random majority rows in each local subset", 0, math.Inf(1), func(c *Config) *float64 { return &c.LocalRandom }),
	learn.Bool("tomek", "remove Tomek links from the global subsets", true, func(c *Config) *bool { return &c.NoTomek }),
	{Key: "member", Help: "registered method of the members; its parameters are member.KEY",
		Get: func(c *Config) string {
			if c.Member == nil {
				return ""
			}
			return c.Member.Name()
		},
		Set: func(c *Config, v string) error {
			m, err := methodByName(strings.TrimSpace(v))
			if err != nil {
				return err
			}
			c.Member = m
			return nil
		}},
	{Key: "grid", Help: `member settings (the member's keys, member. optional), pooled (pool=true) or tried with the best on validation kept: default, none, or "eta:0.1,max_depth:3;eta:0.3,max_depth:6"`,
		Get: func(c *Config) string { return formatGrid(c.Grid, c.NoGrid) },
		Set: func(c *Config, v string) error {
			c.Grid, c.NoGrid = nil, false
			switch strings.TrimSpace(v) {
			case "none":
				c.NoGrid = true
				return nil
			case "", "default":
				return nil
			}
			for _, point := range strings.Split(v, ";") {
				var kvs []string
				for _, kv := range strings.Split(point, ",") {
					k, val, ok := strings.Cut(strings.TrimSpace(kv), ":")
					if !ok {
						return fmt.Errorf("want entries like eta:0.1,max_depth:3;eta:0.3,max_depth:6")
					}
					kvs = append(kvs, strings.TrimPrefix(k, memberPrefix)+"="+val)
				}
				c.Grid = append(c.Grid, kvs)
			}
			return nil
		}},
	enum("outputs", "members' outputs the static weights see: probabilities or 0/1 (paper)", outputsNames, func(c *Config) *Outputs { return &c.Outputs }),
	enum("projection", "back to the simplex after each step: the paper's min-max rescaling or the Euclidean projection", projectionNames, func(c *Config) *Projection { return &c.Projection }),
	enum("init", "static weights start at 1/(0.6 AIC + 0.4 BIC) of each member or uniform", initNames, func(c *Config) *Init { return &c.Init }),
	enum("weight_data", "rows the static weights are fitted on", weightDataNames, func(c *Config) *WeightData { return &c.WeightData }),
	enum("schedule", "step size rule of the descent", scheduleNames, func(c *Config) *Schedule { return &c.Schedule }),
	learn.OpenFloat("step_scale", "c of the step c/||g||", 0, 1, func(c *Config) *float64 { return &c.StepScale }),
	learn.Int("max_iter", "passes of the descent at most", 1, learn.MaxIter, func(c *Config) *int { return &c.MaxIter }),
	learn.Float("tol", "stop when the loss changes by at most this share (negative: run max_iter passes)", math.Inf(-1), math.Inf(1), func(c *Config) *float64 { return &c.Tol }),
	learn.Int("batch_size", "rows per descent step (0: all)", 0, learn.MaxRows, func(c *Config) *int { return &c.BatchSize }),
	enum("likelihood", "dynamic weight rule; log is the paper's literal ratio", likelihoodNames, func(c *Config) *Likelihood { return &c.Likelihood }),
	learn.Bool("mixture_weights", "include log pi_l in the likelihood weights", false, func(c *Config) *bool { return &c.MixtureWeights }),
	learn.Bool("dynamic_ensemble", "fix lambda = 1 (the paper's Dynamic Ensemble)", false, func(c *Config) *bool { return &c.DynamicEnsemble }),
	learn.OpenFloat("delta_step", "spacing of the threshold grid, from 0.0001", 0, 0.5, func(c *Config) *float64 { return &c.DeltaStep }),
	learn.Enum("metric", "what lambda and delta maximise on validation", metricNames(), func(c *Config) *string { return &c.Metric }),
	learn.OpenFloat("holdout", "share of training rows held out for tuning without validation data", 0, 1, func(c *Config) *float64 { return &c.Holdout }),
	learn.Bool("standardize", "standardise features inside the model", true, func(c *Config) *bool { return &c.NoStandardize }),
}

// triBool declares a boolean parameter whose unset (nil) value takes the
// preset's choice.
func triBool(key, help string, field func(*Config) **bool) learn.ParamSpec[Config] {
	return learn.ParamSpec[Config]{Key: key, Help: help,
		Get: func(c *Config) string {
			if p := *field(c); p != nil {
				return strconv.FormatBool(*p)
			}
			return ""
		},
		Set: func(c *Config, v string) error {
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("want true or false, not %q", v)
			}
			*field(c) = &b
			return nil
		}}
}

func metricNames() []string {
	var names []string
	for _, m := range metrics.AllMetrics() {
		names = append(names, m.String())
	}
	return names
}

// The namespaces of the members' and the peers' parameters.
const (
	memberPrefix = "member."
	peerPrefix   = "peer."
)

// Set sets the option named key from its text form, as the command line's
// --param key=value does. Keys are of three kinds:
//
//   - AER's own (preset, components, max_iter, ...), listed by List;
//   - member.KEY, a parameter of the member method (for boosted trees,
//     member.eta=0.1 or member.max_depth=3): checked against the member
//     method and appended to MemberParams; outside a grid given with the
//     grid key, the members are then trained with these settings alone
//     (NoGrid);
//   - peer.NAME.KEY, a parameter of the peer named NAME (peer.logreg.C=0.5),
//     set on a copy of it; peer.KEY when there is one peer. While Peers is
//     nil the peers are the preset's: a peer parameter makes them the
//     configuration's own (a later preset key no longer changes them);
//     setting the peers key replaces them, and their settings with them.
//
// Deprecated: a key that is neither AER's nor in a namespace, but one of
// the member method's, is taken as member.KEY, the form before member
// parameters had a namespace of their own (--param max_depth=3); AER's own
// keys (max_iter, tol) always mean AER's. Write member.KEY.
//
// Errors wrap learn.ErrParam.
func (c *Config) Set(key, value string) error {
	switch {
	case params.Has(key):
		if err := params.Set(c, key, value); err != nil {
			return fmt.Errorf("aer: %w", err)
		}
		return nil
	case strings.HasPrefix(key, memberPrefix):
		return c.setMember(strings.TrimPrefix(key, memberPrefix), value)
	case strings.HasPrefix(key, peerPrefix):
		return c.setPeer(strings.TrimPrefix(key, peerPrefix), value)
	}
	err := c.setMember(key, value)
	if _, known := learn.ParamMap(c.memberMethod().Params())[key]; err != nil && !known {
		return fmt.Errorf("aer: %w: %q is unknown: neither one of AER's parameters nor of its members' (member.KEY) or peers' (peer.NAME.KEY)", learn.ErrParam, key)
	}
	return err
}

// memberMethod returns Member, or DefaultMember() when it is nil.
func (c *Config) memberMethod() learn.Method {
	if c.Member == nil {
		return DefaultMember()
	}
	return c.Member
}

// setMember checks key=value against the member method with its settings
// so far and appends it to MemberParams.
func (c *Config) setMember(key, value string) error {
	member := c.memberMethod()
	m, err := configured(member.Name(), settingsOf(member), c.MemberParams)
	if err != nil {
		return fmt.Errorf("%w: %v", learn.ErrParam, err)
	}
	if err := m.Set(key, value); err != nil {
		return fmt.Errorf("aer: member %s: %w", member.Name(), err)
	}
	c.MemberParams = append(slices.Clone(c.MemberParams), key+"="+strings.TrimSpace(value))
	if c.Grid == nil {
		c.NoGrid = true // member settings given: train with them alone
	}
	return nil
}

// setPeer sets NAME.KEY (or KEY, with one peer) to value on a copy of the
// peer.
func (c *Config) setPeer(key, value string) error {
	peers := c.Peers
	if peers == nil {
		var err error
		if peers, err = presetPeers(c.Preset); err != nil {
			return fmt.Errorf("%w: %v", learn.ErrParam, err)
		}
	}
	if len(peers) == 0 {
		return fmt.Errorf("aer: %w: %s%s: there are no peers (set peers=NAME first)", learn.ErrParam, peerPrefix, key)
	}
	i := -1
	if name, k, ok := strings.Cut(key, "."); ok {
		if j := findPeer(peers, name); j >= 0 {
			i, key = j, k
		}
	}
	if i < 0 {
		if len(peers) > 1 {
			return fmt.Errorf("aer: %w: %s%s: %d peers (%s): write %sNAME.%s", learn.ErrParam, peerPrefix, key,
				len(peers), strings.Join(methodNames(peers), ", "), peerPrefix, key)
		}
		i = 0
	}
	p, err := cloneMethod(peers[i])
	if err != nil {
		return fmt.Errorf("%w: %v", learn.ErrParam, err)
	}
	if err := p.Set(key, value); err != nil {
		return fmt.Errorf("aer: peer %s: %w", p.Name(), err)
	}
	c.Peers = slices.Clone(peers)
	c.Peers[i] = p
	return nil
}

// List describes every parameter, AER's, then its members' as member.KEY
// (with the settings of MemberParams, before any grid point's), then each
// peer's as peer.NAME.KEY, with values and defaults resolved.
func (c *Config) List() []learn.Param { return c.listAgainst(&Config{}) }

// listAgainst is List with the defaults of base (the Dynamic Ensemble's
// differ from AER's).
func (c *Config) listAgainst(base *Config) []learn.Param {
	cur, err := c.resolve()
	if err != nil {
		cur = &resolvedConfig{Config: *c}
	}
	def, _ := base.resolve()
	out := params.List(&cur.Config, &def.Config)
	if len(c.Learners) > 0 {
		return out
	}
	member := cur.Member
	if member == nil {
		member = DefaultMember()
	}
	// The member's defaults are those the preset gives the default
	// member (plus: max_depth 4), its own otherwise.
	var memberDefaults []string
	if def != nil && def.Member != nil && def.Member.Name() == member.Name() {
		memberDefaults = def.MemberParams
	}
	out = append(out, listMethod(member.Name(), cur.MemberParams, memberDefaults, memberPrefix, "member "+member.Name()+": ")...)
	for _, p := range cur.Peers {
		out = append(out, listMethod(p.Name(), settingsOf(p), nil, peerPrefix+p.Name()+".", "peer "+p.Name()+": ")...)
	}
	return out
}

// listMethod lists the parameters of the method registered as name set
// to settings, their keys prefixed by prefix and their help by help, and
// their defaults the method's own set to defaults.
func listMethod(name string, settings, defaults []string, prefix, help string) []learn.Param {
	m, err := configured(name, settings)
	if err != nil {
		return nil
	}
	fresh, err := configured(name, defaults)
	if err != nil {
		return nil
	}
	defaultOf := learn.ParamMap(fresh.Params())
	ps := m.Params()
	for i, p := range ps {
		ps[i].Key, ps[i].Help, ps[i].Default = prefix+p.Key, help+p.Help, defaultOf[p.Key]
	}
	return ps
}

// ParsePool reads a pool of mixture sizes: "3", "2-8" or "2,4,6"
// (mixture.ParsePool: increasing, without duplicates).
func ParsePool(s string) ([]int, error) { return mixture.ParsePool(s) }

// formatPool writes a pool as ParsePool reads it, runs as ranges.
func formatPool(pool []int) string { return mixture.FormatPool(pool) }

// formatGrid writes a grid as the grid parameter reads it.
func formatGrid(grid [][]string, none bool) string {
	switch {
	case none:
		return "none"
	case grid == nil:
		return "default"
	}
	points := make([]string, len(grid))
	for i, p := range grid {
		kvs := make([]string, len(p))
		for j, kv := range p {
			kvs[j] = strings.Replace(kv, "=", ":", 1)
		}
		points[i] = strings.Join(kvs, ",")
	}
	return strings.Join(points, ";")
}

// mixtureParam is the parameter mixture: gaussian is kept as the empty
// Config.Mixture, so that a Gaussian configuration saves as before.
func mixtureParam() learn.ParamSpec[Config] {
	p := enum("mixture", "family of the mixture's components: gaussian (the paper) or t (multivariate t, each component's degrees of freedom estimated; heavy tails pull the components less; measured in docs/robustness.md: equal on clean data, +0.009 balanced accuracy under 5-10% flipped labels, 2.8x the fit time)",
		mixtureNames, func(c *Config) *MixtureFamily { return &c.Mixture })
	set := p.Set
	p.Get = func(c *Config) string {
		if c.Mixture == "" {
			return string(MixtureGaussian)
		}
		return string(c.Mixture)
	}
	p.Set = func(c *Config, v string) error {
		if err := set(c, v); err != nil {
			return err
		}
		if c.Mixture == MixtureGaussian {
			c.Mixture = ""
		}
		return nil
	}
	return p
}
