package nodesim

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
)

// provisionedBy is the annotation a dynamically provisioned volume carries.
const provisionedBy = "pv.kubernetes.io/provisioned-by"

// defaultSize is the size of a volume whose claim requests none.
var defaultSize = resource.MustParse("1Gi")

func (s *sim) syncVolume(ctx context.Context, key string) (time.Duration, error) {
	if name, ok := strings.CutPrefix(key, pvKeyPrefix); ok {
		return 0, s.syncPV(ctx, name)
	}
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, nil
	}
	pvc, err := s.pvcs.PersistentVolumeClaims(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	switch {
	case pvc.DeletionTimestamp != nil:
		return 0, nil
	case pvc.Spec.VolumeName == "":
		return 0, s.provision(ctx, pvc)
	case pvc.Status.Phase == corev1.ClaimBound:
		return 0, s.resize(ctx, pvc)
	}
	return 0, nil
}

// provision creates a volume pre-bound to the claim; the PV binder
// controller then binds the claim to it.
func (s *sim) provision(ctx context.Context, pvc *corev1.PersistentVolumeClaim) error {
	pv := newVolume(pvc)
	_, err := s.client.CoreV1().PersistentVolumes().Create(ctx, pv, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("provisioning %s for %s/%s: %w", pv.Name, pvc.Namespace, pvc.Name, err)
	}
	return nil
}

func volumeName(pvc *corev1.PersistentVolumeClaim) string { return "pvc-" + string(pvc.UID) }

func newVolume(pvc *corev1.PersistentVolumeClaim) *corev1.PersistentVolume {
	size, ok := pvc.Spec.Resources.Requests[corev1.ResourceStorage]
	if !ok {
		size = defaultSize
	}
	modes := pvc.Spec.AccessModes
	if len(modes) == 0 {
		modes = []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}
	}
	name := volumeName(pvc)
	return &corev1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: map[string]string{provisionedBy: Provisioner}},
		Spec: corev1.PersistentVolumeSpec{
			Capacity:                      corev1.ResourceList{corev1.ResourceStorage: size},
			AccessModes:                   modes,
			VolumeMode:                    pvc.Spec.VolumeMode,
			StorageClassName:              ptr.Deref(pvc.Spec.StorageClassName, ""),
			PersistentVolumeReclaimPolicy: corev1.PersistentVolumeReclaimDelete,
			ClaimRef: &corev1.ObjectReference{
				Kind: "PersistentVolumeClaim", APIVersion: "v1",
				Namespace: pvc.Namespace, Name: pvc.Name, UID: pvc.UID,
			},
			PersistentVolumeSource: corev1.PersistentVolumeSource{
				HostPath: &corev1.HostPathVolumeSource{Path: "/var/lib/sieve-nodesim/" + name},
			},
		},
	}
}

// resize grows a bound volume and its claim's capacity when the claim asks
// for more, as an external resizer would.
func (s *sim) resize(ctx context.Context, pvc *corev1.PersistentVolumeClaim) error {
	want, ok := pvc.Spec.Resources.Requests[corev1.ResourceStorage]
	have := pvc.Status.Capacity[corev1.ResourceStorage]
	if !ok || want.Cmp(have) <= 0 {
		return nil
	}
	pv, err := s.pvs.Get(pvc.Spec.VolumeName)
	if err != nil {
		return ignoreGone(err)
	}
	if cur := pv.Spec.Capacity[corev1.ResourceStorage]; want.Cmp(cur) > 0 {
		pv = pv.DeepCopy()
		pv.Spec.Capacity[corev1.ResourceStorage] = want
		if _, err := s.client.CoreV1().PersistentVolumes().Update(ctx, pv, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("resizing %s: %w", pv.Name, err)
		}
	}
	pvc = pvc.DeepCopy()
	pvc.Status.Capacity = corev1.ResourceList{corev1.ResourceStorage: want}
	_, err = s.client.CoreV1().PersistentVolumeClaims(pvc.Namespace).UpdateStatus(ctx, pvc, metav1.UpdateOptions{})
	return ignoreGone(err)
}

// syncPV deletes a released volume that nodesim provisioned, as the
// provisioner does for the Delete reclaim policy.
func (s *sim) syncPV(ctx context.Context, name string) error {
	pv, err := s.pvs.Get(name)
	if err != nil {
		return ignoreGone(err)
	}
	if pv.Annotations[provisionedBy] != Provisioner || pv.DeletionTimestamp != nil ||
		pv.Spec.PersistentVolumeReclaimPolicy != corev1.PersistentVolumeReclaimDelete ||
		pv.Status.Phase != corev1.VolumeReleased {
		return nil
	}
	err = s.client.CoreV1().PersistentVolumes().Delete(ctx, name, metav1.DeleteOptions{})
	return ignoreGone(err)
}
