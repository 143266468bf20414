package component

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/apiserver/pkg/server/flagz"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/component-base/cli/globalflag"
	basecompatibility "k8s.io/component-base/compatibility"
	"k8s.io/component-base/featuregate"
	"k8s.io/component-base/logs"
	logsapi "k8s.io/component-base/logs/api/v1"
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	"k8s.io/kubernetes/cmd/kube-apiserver/app/options"
)

// newAPIServerCommand is kube-apiserver's command
// (app.NewAPIServerCommand, whose flags it takes unchanged) with one
// difference in what it runs: see runAPIServerChain.
func newAPIServerCommand() *cobra.Command {
	s := options.NewServerRunOptions()
	ctx := genericapiserver.SetupSignalContext()
	featureGate := s.GenericServerRunOptions.ComponentGlobalsRegistry.FeatureGateFor(basecompatibility.DefaultKubeComponent)
	cmd := &cobra.Command{
		Use:          APIServer,
		SilenceUsage: true,
		PersistentPreRunE: func(*cobra.Command, []string) error {
			if err := s.GenericServerRunOptions.ComponentGlobalsRegistry.Set(); err != nil {
				return err
			}
			rest.SetDefaultWarningHandler(rest.NoWarnings{})
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("%s takes no arguments, got %q", APIServer, args)
			}
			if err := logsapi.ValidateAndApply(s.Logs, featureGate); err != nil {
				return err
			}
			cliflag.PrintFlags(cmd.Flags())
			completed, err := s.Complete(ctx)
			if err != nil {
				return err
			}
			if errs := completed.Validate(); len(errs) != 0 {
				return utilerrors.NewAggregate(errs)
			}
			featureGate.(featuregate.MutableFeatureGate).AddMetrics()
			s.GenericServerRunOptions.ComponentGlobalsRegistry.AddMetrics()
			return runAPIServerChain(ctx, completed)
		},
	}
	cmd.SetContext(ctx)
	named := s.Flags()
	s.Flagz = flagz.NamedFlagSetsReader{FlagSets: named}
	globalflag.AddGlobalFlags(named.FlagSet("global"), cmd.Name(), logs.SkipLoggingConfigurationFlags())
	for _, f := range named.FlagSets {
		cmd.Flags().AddFlagSet(f)
	}
	return cmd
}

// runAPIServerChain is app.Run with two differences on the path to ready.
// It leaves out the OpenAPI v2 document of the built-in APIs, which the
// API server otherwise builds from every route before it serves (about a
// tenth of its start-up CPU). /openapi/v3, which kubectl uses since 1.27
// (explain, validation, apply), stays complete; /openapi/v2 describes only
// the custom resources (the apiextensions server builds it, and needs it to
// publish the CRDs' schemas in v3 too). And its bootstrap hooks start at
// once (see bootstrapHooks).
func runAPIServerChain(ctx context.Context, opts options.CompletedOptions) error {
	if opts.InformerName == nil {
		name, err := cache.NewInformerName(APIServer)
		if err != nil {
			return err
		}
		opts.InformerName = name
	}
	config, err := apiserver.NewConfig(opts)
	if err != nil {
		return err
	}
	config.KubeAPIs.ControlPlane.Generic.OpenAPIConfig = nil
	config.Aggregator.GenericConfig.OpenAPIConfig = nil
	rolesReady, err := bootstrapHooks(config.KubeAPIs.ControlPlane.Generic)
	if err != nil {
		return err
	}
	completed, err := config.Complete()
	if err != nil {
		return err
	}
	server, err := apiserver.CreateServerChain(completed)
	if err != nil {
		return err
	}
	if err := server.GenericAPIServer.AddReadyzChecks(rolesReady); err != nil {
		return err
	}
	prepared, err := server.PrepareRun()
	if err != nil {
		return err
	}
	return prepared.Run(ctx)
}
