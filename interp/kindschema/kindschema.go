package kindschema

import (
	"encoding/json"
	"path"
	"reflect"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// kinds maps each built-in kind, as resource keys spell it (lowercase
// singular), to its Go type. Kinds whose API groups or versions serve
// different fields under one name (event: core/v1 and events.k8s.io/v1;
// horizontalpodautoscaler: autoscaling/v1 and v2) are left out, so the
// checker says nothing of them rather than something wrong.
func kinds() map[string]any {
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

// Table is the file's layout. A field's type is "" for a scalar, "{}" for
// a value whose fields are open (a map, or a type with its own JSON
// encoding such as a quantity or a time), "[]T" for a list of T, or the
// name of an entry of Types.
type Table struct {
	Kinds map[string]string            `json:"kinds"`
	Types map[string]map[string]string `json:"types"`
}

// Generate returns the table of every built-in kind, as indented JSON.
func Generate() ([]byte, error) {
	t := Table{Kinds: map[string]string{}, Types: map[string]map[string]string{}}
	for kind, v := range kinds() {
		t.Kinds[kind] = t.typeOf(reflect.TypeOf(v))
	}
	b, err := json.MarshalIndent(t, "", "\t")
	return append(b, '\n'), err
}

// marshaler is a type that writes its own JSON.
var marshaler = reflect.TypeFor[json.Marshaler]()

// typeOf returns the name of rt's type in the table, adding the struct
// types it meets.
func (t Table) typeOf(rt reflect.Type) string {
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
	fields := map[string]string{}
	t.Types[name] = fields // before the fields: types may refer to themselves
	t.addFields(fields, rt)
	return name
}

// addFields adds the JSON fields of struct type rt to fields, those of
// inlined structs included.
func (t Table) addFields(fields map[string]string, rt reflect.Type) {
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
			t.addFields(fields, ft)
		case tag == "":
			fields[f.Name] = t.typeOf(f.Type)
		default:
			fields[tag] = t.typeOf(f.Type)
		}
	}
}
