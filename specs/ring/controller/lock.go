package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/client-go/kubernetes"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// leaderAnnotation holds a ConfigMap lock's record, as client-go's
// ConfigMapLock kept it.
const leaderAnnotation = "control-plane.alpha.kubernetes.io/leader"

// configMapsLeasesLock is controller-runtime's old "configmapsleases"
// lock (the default from v0.7 to v0.11): the record kept both in a
// ConfigMap's leader annotation and in a Lease of the same name, both
// renewed every retry period. client-go no longer ships the ConfigMap
// half, so configMapLock below is it, as client-go had it.
func configMapsLeasesLock(cs kubernetes.Interface, ns, name string) (resourcelock.Interface, error) {
	host, err := os.Hostname()
	if err != nil {
		return nil, err
	}
	conf := resourcelock.ResourceLockConfig{Identity: host + "_" + string(uuid.NewUUID())}
	meta := metav1.ObjectMeta{Namespace: ns, Name: name}
	return &resourcelock.MultiLock{
		Primary:   &configMapLock{meta: meta, client: cs.CoreV1(), conf: conf},
		Secondary: &resourcelock.LeaseLock{LeaseMeta: meta, Client: cs.CoordinationV1(), LockConfig: conf},
	}, nil
}

// configMapLock keeps a leader-election record in a ConfigMap's
// annotation.
type configMapLock struct {
	meta   metav1.ObjectMeta
	client corev1client.ConfigMapsGetter
	conf   resourcelock.ResourceLockConfig
	cm     *corev1.ConfigMap
}

// Get returns the record of the ConfigMap's annotation.
func (l *configMapLock) Get(ctx context.Context) (*resourcelock.LeaderElectionRecord, []byte, error) {
	cm, err := l.client.ConfigMaps(l.meta.Namespace).Get(ctx, l.meta.Name, metav1.GetOptions{})
	if err != nil {
		return nil, nil, err
	}
	l.cm = cm
	var rec resourcelock.LeaderElectionRecord
	raw, ok := cm.Annotations[leaderAnnotation]
	if !ok {
		return &rec, nil, nil
	}
	if err := json.Unmarshal([]byte(raw), &rec); err != nil {
		return nil, nil, err
	}
	return &rec, []byte(raw), nil
}

// Create creates the ConfigMap with the record.
func (l *configMapLock) Create(ctx context.Context, rec resourcelock.LeaderElectionRecord) error {
	raw, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: l.meta.Namespace, Name: l.meta.Name,
		Annotations: map[string]string{leaderAnnotation: string(raw)}}}
	l.cm, err = l.client.ConfigMaps(l.meta.Namespace).Create(ctx, cm, metav1.CreateOptions{})
	return err
}

// Update writes the record into the ConfigMap read last.
func (l *configMapLock) Update(ctx context.Context, rec resourcelock.LeaderElectionRecord) error {
	if l.cm == nil {
		return errors.New("configmap lock not initialized, call get or create first")
	}
	raw, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	cm := l.cm.DeepCopy()
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[leaderAnnotation] = string(raw)
	cm, err = l.client.ConfigMaps(l.meta.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	l.cm = cm
	return nil
}

// RecordEvent records nothing: the example has no event recorder.
func (l *configMapLock) RecordEvent(string) {}

// Identity is the candidate's identity.
func (l *configMapLock) Identity() string { return l.conf.Identity }

// Describe names the lock.
func (l *configMapLock) Describe() string { return fmt.Sprintf("%v/%v", l.meta.Namespace, l.meta.Name) }
