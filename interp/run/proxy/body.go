package proxy

import (
	"encoding/json"
	"fmt"
	"mime"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/serializer/cbor/direct"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"

	"github.com/sievetool/sieve/lang/diag"
)

// Media types the proxy recognises.
const (
	mediaJSON     = "application/json"
	mediaProtobuf = "application/vnd.kubernetes.protobuf"
	mediaCBOR     = "application/cbor"
)

// bodyJSON returns the JSON form of a request body sent with the given
// content type: JSON and JSON patches as they are, YAML (server-side apply)
// converted, protobuf decoded with client-go's scheme, CBOR decoded. A body
// that cannot be decoded is recorded as a JSON string that says so.
func bodyJSON(contentType string, raw []byte) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	mt := mediaType(contentType)
	var out []byte
	var err error
	switch {
	case mt == mediaProtobuf:
		out, err = protobufToJSON(raw)
	case isCBOR(mt):
		out, err = cborToJSON(raw)
	case strings.HasSuffix(mt, "yaml"):
		out, err = yaml.YAMLToJSON(raw)
	case json.Valid(raw):
		return json.RawMessage(raw)
	default:
		err = fmt.Errorf("not JSON")
	}
	if err != nil {
		msg, _ := json.Marshal(fmt.Sprintf("sieve: undecodable %s body (%d bytes): %s", diag.Quote(mt), len(raw), diag.Quote(err.Error())))
		return msg
	}
	return out
}

// mediaType returns the media type of a Content-Type header, without its
// parameters.
func mediaType(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return contentType
	}
	return mt
}

// binaryMedia reports whether a media type is one that bodyJSON decodes
// from a binary encoding: protobuf or CBOR.
func binaryMedia(mt string) bool { return mt == mediaProtobuf || isCBOR(mt) }

func isCBOR(mt string) bool { return strings.HasSuffix(mt, "cbor") }

func protobufToJSON(raw []byte) ([]byte, error) {
	obj, gvk, err := scheme.Codecs.UniversalDeserializer().Decode(raw, nil, nil)
	if err != nil {
		return nil, err
	}
	obj.GetObjectKind().SetGroupVersionKind(*gvk)
	return json.Marshal(obj)
}

func cborToJSON(raw []byte) ([]byte, error) {
	var v any
	if err := direct.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// jsonAccept rewrites an Accept header so the upstream answers in JSON:
// protobuf and CBOR choices are dropped (client-go decodes a response by its
// Content-Type, so a protobuf client reads the JSON answer), and an empty
// result becomes application/json.
func jsonAccept(accept string) string {
	var keep []string
	for _, c := range strings.Split(accept, ",") {
		c = strings.TrimSpace(c)
		mt, _, _ := strings.Cut(c, ";")
		mt = strings.TrimSpace(mt)
		if c == "" || binaryMedia(mt) {
			continue
		}
		keep = append(keep, c)
	}
	if len(keep) == 0 {
		return mediaJSON
	}
	return strings.Join(keep, ",")
}
