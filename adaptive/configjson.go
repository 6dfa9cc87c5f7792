package adaptive

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// configJSON is the JSON form of a Config, field for field in Config's
// order, with the member and peer methods by name. Model files and
// reports hold it, so its bytes stay those written before the methods
// were values: peer_params, the peers' settings, is new and omitted when
// empty.
type configJSON struct {
	Preset              Preset        `json:"preset"`
	Pool                *bool         `json:"pool,omitempty"`
	Global              *bool         `json:"global,omitempty"`
	Peers               []string      `json:"peers"`
	PeerParams          []string      `json:"peer_params,omitempty"`
	Space               Space         `json:"space"`
	Thresholds          Thresholds    `json:"thresholds"`
	DeltaRule           DeltaRule     `json:"delta_rule"`
	Select              Select        `json:"select"`
	Components          []int         `json:"components"`
	Covariance          Covariance    `json:"covariance"`
	Mixture             MixtureFamily `json:"mixture,omitempty"`
	NInit               int           `json:"n_init"`
	SelectRows          int           `json:"select_rows,omitempty"`
	SelectPCs           int           `json:"select_pcs,omitempty"`
	RefitRestarts       bool          `json:"refit_restarts,omitempty"`
	MixtureRows         int           `json:"mixture_rows,omitempty"`
	PeerRows            int           `json:"peer_rows,omitempty"`
	Fallback            float64       `json:"fallback,omitempty"`
	CrossTune           int           `json:"cross_tune,omitempty"`
	CrossTuneBelow      int           `json:"cross_tune_below,omitempty"`
	CrossTuneComponents int           `json:"cross_tune_components,omitempty"`
	CrossTuneMaxBin     int           `json:"cross_tune_max_bin,omitempty"`
	Rank                Rank          `json:"rank"`
	LocalRandom         float64       `json:"local_random"`
	NoTomek             bool          `json:"no_tomek,omitempty"`
	Member              string        `json:"member"`
	MemberParams        []string      `json:"member_params,omitempty"`
	Grid                [][]string    `json:"grid,omitempty"`
	NoGrid              bool          `json:"no_grid,omitempty"`
	Outputs             Outputs       `json:"outputs"`
	Projection          Projection    `json:"projection"`
	Init                Init          `json:"init"`
	WeightData          WeightData    `json:"weight_data"`
	Schedule            Schedule      `json:"schedule"`
	StepScale           float64       `json:"step_scale"`
	Tol                 float64       `json:"tol"`
	MaxIter             int           `json:"max_iter"`
	BatchSize           int           `json:"batch_size,omitempty"`
	Likelihood          Likelihood    `json:"likelihood"`
	MixtureWeights      bool          `json:"mixture_weights,omitempty"`
	DynamicEnsemble     bool          `json:"dynamic_ensemble,omitempty"`
	DeltaStep           float64       `json:"delta_step"`
	Metric              string        `json:"metric"`
	Holdout             float64       `json:"holdout"`
	NoStandardize       bool          `json:"no_standardize,omitempty"`
}

// MarshalJSON encodes c with its member and peer methods by name and the
// peers' settings as "NAME.key=value" (peer_params). The member's own
// settings are recorded in member_params once c is resolved (the
// configuration of a Report or a Model). Learners are not encoded.
func (c Config) MarshalJSON() ([]byte, error) {
	j := configJSON{
		Preset: c.Preset, Pool: c.Pool, Global: c.Global, Peers: methodNames(c.Peers), PeerParams: peerSettings(c.Peers),
		Space: c.Space, Thresholds: c.Thresholds, DeltaRule: c.DeltaRule, Select: c.Select,
		Components: c.Components, Covariance: c.Covariance, Mixture: c.Mixture, NInit: c.NInit, SelectRows: c.SelectRows, SelectPCs: c.SelectPCs,
		RefitRestarts: c.RefitRestarts, MixtureRows: c.MixtureRows, PeerRows: c.PeerRows, Fallback: c.Fallback, CrossTune: c.CrossTune, CrossTuneBelow: c.CrossTuneBelow, CrossTuneComponents: c.CrossTuneComponents, CrossTuneMaxBin: c.CrossTuneMaxBin, Rank: c.Rank, LocalRandom: c.LocalRandom, NoTomek: c.NoTomek,
		MemberParams: c.MemberParams, Grid: c.Grid, NoGrid: c.NoGrid,
		Outputs: c.Outputs, Projection: c.Projection, Init: c.Init, WeightData: c.WeightData, Schedule: c.Schedule,
		StepScale: c.StepScale, Tol: c.Tol, MaxIter: c.MaxIter, BatchSize: c.BatchSize,
		Likelihood: c.Likelihood, MixtureWeights: c.MixtureWeights, DynamicEnsemble: c.DynamicEnsemble,
		DeltaStep: c.DeltaStep, Metric: c.Metric, Holdout: c.Holdout, NoStandardize: c.NoStandardize,
	}
	if c.Member != nil {
		j.Member = c.Member.Name()
	}
	return json.Marshal(&j)
}

// UnmarshalJSON decodes what MarshalJSON writes, and the configurations
// of earlier versions (which lack the newer keys). The member and peer
// methods are found by name among the registered methods (boosted trees
// and logistic regression are always found); unknown keys are an error.
func (c *Config) UnmarshalJSON(b []byte) error {
	var j configJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return err
	}
	n := Config{
		Preset: j.Preset, Pool: j.Pool, Global: j.Global,
		Space: j.Space, Thresholds: j.Thresholds, DeltaRule: j.DeltaRule, Select: j.Select,
		Components: j.Components, Covariance: j.Covariance, Mixture: j.Mixture, NInit: j.NInit, SelectRows: j.SelectRows, SelectPCs: j.SelectPCs,
		RefitRestarts: j.RefitRestarts, MixtureRows: j.MixtureRows, PeerRows: j.PeerRows, Fallback: j.Fallback, CrossTune: j.CrossTune, CrossTuneBelow: j.CrossTuneBelow, CrossTuneComponents: j.CrossTuneComponents, CrossTuneMaxBin: j.CrossTuneMaxBin, Rank: j.Rank, LocalRandom: j.LocalRandom, NoTomek: j.NoTomek,
		MemberParams: j.MemberParams, Grid: j.Grid, NoGrid: j.NoGrid,
		Outputs: j.Outputs, Projection: j.Projection, Init: j.Init, WeightData: j.WeightData, Schedule: j.Schedule,
		StepScale: j.StepScale, Tol: j.Tol, MaxIter: j.MaxIter, BatchSize: j.BatchSize,
		Likelihood: j.Likelihood, MixtureWeights: j.MixtureWeights, DynamicEnsemble: j.DynamicEnsemble,
		DeltaStep: j.DeltaStep, Metric: j.Metric, Holdout: j.Holdout, NoStandardize: j.NoStandardize,
	}
	if j.Member != "" {
		m, err := methodByName(j.Member)
		if err != nil {
			return fmt.Errorf("member: %w", err)
		}
		n.Member = m
	}
	peers, err := methodsByName(j.Peers)
	if err != nil {
		return fmt.Errorf("peers: %w", err)
	}
	for _, kv := range j.PeerParams {
		name, setting, _ := strings.Cut(kv, ".")
		i := findPeer(peers, name)
		if i < 0 {
			return fmt.Errorf("peer_params %q: no peer %q", kv, name)
		}
		if err := apply(peers[i], []string{setting}); err != nil {
			return fmt.Errorf("peer_params: %w", err)
		}
	}
	n.Peers = peers
	*c = n
	return nil
}
