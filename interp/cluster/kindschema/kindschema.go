package kindschema

import (
	"encoding/json"
	"path"
	"reflect"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensions "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	aggregator "k8s.io/kube-aggregator/pkg/client/clientset_generated/clientset/scheme"

	"github.com/sievetool/sieve/lang/kinds"
)

// kindTypes maps each built-in kind, as resource keys spell it (lowercase
// singular), to its Go type. Kinds whose API groups or versions serve
// different fields under one name (event: core/v1 and events.k8s.io/v1;
// horizontalpodautoscaler: autoscaling/v1 and v2) are left out, so the
// checker says nothing of them rather than something wrong.
func kindTypes() map[string]any {
	return map[string]any{
		"pod": corev1.Pod{}, "service": corev1.Service{}, "configmap": corev1.ConfigMap{},
		"secret": corev1.Secret{}, "namespace": corev1.Namespace{}, "serviceaccount": corev1.ServiceAccount{},
		"endpoints": corev1.Endpoints{}, "persistentvolumeclaim": corev1.PersistentVolumeClaim{},
		"persistentvolume": corev1.PersistentVolume{}, "node": corev1.Node{},
		"replicationcontroller": corev1.ReplicationController{},
		"deployment":            appsv1.Deployment{}, "replicaset": appsv1.ReplicaSet{},
		"statefulset": appsv1.StatefulSet{}, "daemonset": appsv1.DaemonSet{},
		"controllerrevision": appsv1.ControllerRevision{},
		"job":                batchv1.Job{}, "cronjob": batchv1.CronJob{},
		"lease":               coordinationv1.Lease{},
		"endpointslice":       discoveryv1.EndpointSlice{},
		"poddisruptionbudget": policyv1.PodDisruptionBudget{},
		"role":                rbacv1.Role{}, "clusterrole": rbacv1.ClusterRole{},
		"rolebinding": rbacv1.RoleBinding{}, "clusterrolebinding": rbacv1.ClusterRoleBinding{},
		"customresourcedefinition": apiextensionsv1.CustomResourceDefinition{},
	}
}

// aliases are kubectl's short names and the plural resource names of
// built-in kinds, each to the lowercase singular kind that resource keys
// use.
func aliases() map[string]string {
	return map[string]string{
		"po": "pod", "pods": "pod",
		"svc": "service", "services": "service",
		"cm": "configmap", "configmaps": "configmap",
		"secrets": "secret",
		"ns":      "namespace", "namespaces": "namespace",
		"sa": "serviceaccount", "serviceaccounts": "serviceaccount",
		"ep":             "endpoints",
		"endpointslices": "endpointslice",
		"pvc":            "persistentvolumeclaim", "persistentvolumeclaims": "persistentvolumeclaim",
		"pv": "persistentvolume", "persistentvolumes": "persistentvolume",
		"deploy": "deployment", "deployments": "deployment",
		"rs": "replicaset", "replicasets": "replicaset",
		"sts": "statefulset", "statefulsets": "statefulset",
		"ds": "daemonset", "daemonsets": "daemonset",
		"jobs": "job",
		"cj":   "cronjob", "cronjobs": "cronjob",
		"leases": "lease",
		"ev":     "event", "events": "event",
		"crd": "customresourcedefinition", "crds": "customresourcedefinition", "customresourcedefinitions": "customresourcedefinition",
		"controllerrevisions": "controllerrevision",
		"pdb":                 "poddisruptionbudget", "poddisruptionbudgets": "poddisruptionbudget",
		"roles":               "role",
		"rolebindings":        "rolebinding",
		"clusterroles":        "clusterrole",
		"clusterrolebindings": "clusterrolebinding",
	}
}

// served are "apiVersion kind" of every object kind (with metadata; not
// lists, not options) of client-go's scheme and of the API server's two
// other built-in groups (CustomResourceDefinition, APIService), sorted.
func served() []string {
	var out []string
	for _, s := range []*runtime.Scheme{scheme.Scheme, apiextensions.Scheme, aggregator.Scheme} {
		for gvk, typ := range s.AllKnownTypes() {
			_, isObject := reflect.New(typ).Interface().(metav1.Object)
			if !isObject || strings.HasSuffix(gvk.Kind, "List") || gvk.Version == "__internal" {
				continue
			}
			out = append(out, gvk.GroupVersion().String()+" "+gvk.Kind)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Generate returns the table of built-in kinds (lang/kinds.Table), as
// indented JSON.
func Generate() ([]byte, error) {
	t := walk()
	b, err := json.MarshalIndent(t.Table, "", "\t")
	return append(b, '\n'), err
}

// GenerateDocs returns the descriptions of the fields of the table's
// types (lang/kinds.FieldDocs), from the k8s.io/api types' SwaggerDoc, as
// JSON: type name → field → description.
func GenerateDocs() ([]byte, error) {
	t := walk()
	b, err := json.MarshalIndent(t.docs, "", "\t")
	return append(b, '\n'), err
}

// walk builds the table from the kinds' types.
func walk() table {
	t := table{Table: kinds.Table{Served: served(), Aliases: aliases(), Kinds: map[string]string{}, Types: map[string]map[string]string{}},
		docs: map[string]map[string]string{}}
	for kind, v := range kindTypes() {
		t.Kinds[kind] = t.typeOf(reflect.TypeOf(v))
	}
	return t
}

// table is the table being generated, and the descriptions of its types'
// fields.
type table struct {
	kinds.Table
	docs map[string]map[string]string
}

// swaggerDoc is what the k8s.io/api types say of their fields.
type swaggerDoc interface{ SwaggerDoc() map[string]string }

// marshaler is a type that writes its own JSON.
var marshaler = reflect.TypeFor[json.Marshaler]()

// typeOf returns the name of rt's type in the table, adding the struct
// types it meets.
func (t table) typeOf(rt reflect.Type) string {
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	switch {
	case rt.Implements(marshaler) || reflect.PointerTo(rt).Implements(marshaler):
		return "{}"
	case rt.Kind() == reflect.Slice && rt.Elem().Kind() == reflect.Uint8:
		return "" // base64 text
	case rt.Kind() == reflect.Slice || rt.Kind() == reflect.Array:
		return "[]" + t.typeOf(rt.Elem())
	case rt.Kind() == reflect.Map || rt.Kind() == reflect.Interface:
		return "{}"
	case rt.Kind() != reflect.Struct:
		return ""
	}
	name := path.Base(path.Dir(rt.PkgPath())) + "/" + path.Base(rt.PkgPath()) + "." + rt.Name()
	if _, ok := t.Types[name]; ok {
		return name
	}
	fields, docs := map[string]string{}, map[string]string{}
	t.Types[name] = fields // before the fields: types may refer to themselves
	t.addFields(fields, docs, rt)
	if len(docs) > 0 {
		t.docs[name] = docs
	}
	return name
}

// addFields adds the JSON fields of struct type rt to fields, and their
// descriptions to docs, those of inlined structs included.
func (t table) addFields(fields, docs map[string]string, rt reflect.Type) {
	var said map[string]string
	if d, ok := reflect.New(rt).Elem().Interface().(swaggerDoc); ok {
		said = d.SwaggerDoc()
	}
	for i := range rt.NumField() {
		f := rt.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case tag == "-" || !f.IsExported():
		case tag == "" && f.Anonymous:
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			t.addFields(fields, docs, ft)
		case tag == "":
			fields[f.Name] = t.typeOf(f.Type)
		default:
			fields[tag] = t.typeOf(f.Type)
			if said[tag] != "" {
				docs[tag] = said[tag]
			}
		}
	}
}
