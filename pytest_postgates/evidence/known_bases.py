"""Classes outside the product whose members are known without reading anyone's code: the
running Python's own builtins and standard classes (their real attributes, as the
interpreter makes them), and the JavaScript built-ins every runtime has. The API model
reads a product class's inherited members from them when its base is one of these.
"""

from __future__ import annotations

import abc
import builtins
import enum
import types
import typing
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytest_postgates.evidence.file_table import FileTable


# Bases outside the product whose members are known without reading anyone's code: the
# running Python's own builtins and standard classes (their real attributes), and the
# JavaScript built-ins every runtime has.
def _subclass_members(base: Any) -> frozenset[str]:
    """What a class deriving from ``base`` has, as the running interpreter makes it."""
    try:
        made = types.new_class("_Probe", (base,))
    except TypeError:
        made = base
    return frozenset(dir(made))


_T = typing.TypeVar("_T")
PY_BASES: dict[str, frozenset[str]] = {
    name: _subclass_members(value)
    for name, value in {
        **{
            n: getattr(builtins, n) for n in dir(builtins) if isinstance(getattr(builtins, n), type)
        },
        "Enum": enum.Enum,
        "IntEnum": enum.IntEnum,
        "StrEnum": getattr(enum, "StrEnum", enum.Enum),
        "Flag": enum.Flag,
        "IntFlag": enum.IntFlag,
        "ABC": abc.ABC,
        "Protocol": typing.Protocol,
        "Generic": typing.Generic[_T],  # type: ignore[index]
    }.items()
}


class _NamedTupleProbe(typing.NamedTuple):
    probe: int


class _TypedDictProbe(typing.TypedDict):
    probe: int


# Class-syntax NamedTuple and TypedDict are made by metaclass machinery: probe them as written.
PY_BASES["NamedTuple"] = frozenset(dir(_NamedTupleProbe)) - {"probe"}
PY_BASES["TypedDict"] = frozenset(dir(_TypedDictProbe)) - {"probe"}


# An enum class lists few names (EnumType.__dir__); its members have `name`, `value` and
# their base type's methods: what a sample reaches through `Color.RED` or a returned member.
def _enum_member_names(base: Any, value: object) -> frozenset[str]:
    made = base("_Probe", {"PROBE": value})
    return frozenset(dir(made["PROBE"]))


for _enum_name, _enum_value in (("Enum", 1), ("IntEnum", 1), ("StrEnum", "a"), ("Flag", 1),
                                ("IntFlag", 1)):  # fmt: skip
    _enum_base = getattr(enum, _enum_name, enum.Enum)
    PY_BASES[_enum_name] |= _enum_member_names(_enum_base, _enum_value)
# A base written with arguments (``Generic[T]``, ``dict[str, int]``) gives these as well.
SUBSCRIPTED_BASE_MEMBERS = frozenset({"__orig_bases__", "__parameters__"})
_UINT8_ARRAY = (
    "BYTES_PER_ELEMENT at buffer byteLength byteOffset copyWithin entries every fill filter"
    " find findIndex forEach includes indexOf join keys lastIndexOf length map reduce"
    " reduceRight reverse set slice some sort subarray toLocaleString toString valueOf values"
)
JS_BASES: dict[str, frozenset[str]] = {
    "Error": frozenset({"message", "name", "stack", "cause", "toString"}),
    # A function type's (`type Factory = (config) => Provider`): what every function has.
    "Function": frozenset(
        {"apply", "arguments", "bind", "call", "caller", "length", "name", "prototype", "toString"}
    ),
    "Object": frozenset(
        "constructor hasOwnProperty isPrototypeOf propertyIsEnumerable toLocaleString toString"
        " valueOf".split()
    ),
    "EventEmitter": frozenset(
        {
            "on",
            "once",
            "off",
            "emit",
            "addListener",
            "removeListener",
            "removeAllListeners",
            "listeners",
            "rawListeners",
            "listenerCount",
            "setMaxListeners",
            "getMaxListeners",
            "prependListener",
            "prependOnceListener",
            "eventNames",
        }
    ),
    # The web platform's (Node's global since 15): WebSocket, EventSource extend it.
    "EventTarget": frozenset({"addEventListener", "removeEventListener", "dispatchEvent"}),
    "Promise": frozenset({"then", "catch", "finally"}),
    "Uint8Array": frozenset(_UINT8_ARRAY.split()),
}
# The web platform's option dictionaries (global types in TypeScript's lib.dom and Node's
# fetch, undici's fields included) that a product's option types extend (ky's `interface
# Options extends RequestInit`): their keys are known without reading anyone's code. Read
# only where the name is the global one (a file importing its own RequestInit, node-fetch's
# say, means that one).
_REQUEST_INIT = (
    "body cache credentials headers integrity keepalive method mode priority redirect referrer"
    " referrerPolicy signal window dispatcher duplex"
)
# The WHATWG URL class (global in lib.dom and Node, and Node's `url` module's) is here too:
# an option parameter often takes one beside its own options (got's `url: string | URL`),
# and an object literal there is judged against both.
_URL = (
    "hash host hostname href origin password pathname port protocol search searchParams"
    " username toJSON toString"
)
JS_DICTIONARIES: dict[str, frozenset[str]] = {
    "RequestInit": frozenset(_REQUEST_INIT.split()),
    "ResponseInit": frozenset({"headers", "status", "statusText"}),
    "URL": frozenset(_URL.split()),
}
# Node's interfaces and classes (@types/node) that a product's types are built from (got's
# `Options = Merge<https.RequestOptions, ...>`, `Response extends http.IncomingMessage`), by
# (module, name): their keys or members, inherited ones and recent releases' included, so a
# key an older release lacks is still taken.
_HTTP_REQUEST = (
    "_defaultAgent agent auth createConnection defaultPort family headers host hostname"
    " httpValidation insecureHTTPParser localAddress localPort lookup maxHeaderSize method path"
    " port protocol setDefaultHeaders setHost signal socketPath timeout uniqueHeaders"
    " joinDuplicateHeaders hints"
)
_TLS_CONTEXT = (
    "ALPNCallback allowPartialTrustChain ca cert certificateCompression sigalgs ciphers"
    " clientCertEngine crl dhparam ecdhCurve honorCipherOrder key privateKeyEngine"
    " privateKeyIdentifier maxVersion minVersion passphrase pfx secureOptions secureProtocol"
    " sessionIdContext ticketKeys sessionTimeout"
)
_HTTPS_REQUEST = f"{_HTTP_REQUEST} {_TLS_CONTEXT} checkServerIdentity rejectUnauthorized servername"
_READABLE = (
    "_construct _destroy _read addListener closed compose destroy destroyed drop emit errored"
    " every filter find flatMap forEach isPaused iterator listenerCount map pause push read"
    " readable readableAborted readableDidRead readableEncoding readableEnded readableFlowing"
    " readableHighWaterMark readableLength readableObjectMode reduce resume setEncoding some"
    " take toArray unpipe unshift wrap asIndexedPairs pipe"
)
_INCOMING = (
    "aborted complete connection headers headersDistinct httpVersion httpVersionMajor"
    " httpVersionMinor method rawHeaders rawTrailers setTimeout signal socket statusCode"
    " statusMessage trailers trailersDistinct url"
)
# stream's classes (both sides of a Duplex), as @types/node 26 declares them.
_STREAM_COMMON = (
    "_construct _destroy addListener closed destroy destroyed emit errored eventNames"
    " getMaxListeners listenerCount listeners off on once pipe prependListener"
    " prependOnceListener rawListeners removeAllListeners removeListener setMaxListeners"
)
_STREAM_READABLE = (
    f"{_STREAM_COMMON} _read compose drop every filter find flatMap forEach isPaused iterator"
    " map pause push read readable readableAborted readableDidRead readableEncoding"
    " readableEnded readableFlowing readableHighWaterMark readableLength readableObjectMode"
    " reduce resume setEncoding some take toArray unpipe unshift wrap"
)
_STREAM_WRITABLE = (
    f"{_STREAM_COMMON} _final _write _writev cork end setDefaultEncoding uncork writable"
    " writableAborted writableCorked writableEnded writableFinished writableHighWaterMark"
    " writableLength writableNeedDrain writableObjectMode write"
)
_BUFFER = (
    " ".join(
        f"{verb}{kind}"
        for verb in ("read", "write")
        for kind in (
            "BigInt64BE BigInt64LE BigUInt64BE BigUInt64LE BigUint64BE BigUint64LE DoubleBE"
            " DoubleLE FloatBE FloatLE Int16BE Int16LE Int32BE Int32LE Int8 IntBE IntLE UInt16BE"
            " UInt16LE UInt32BE UInt32LE UInt8 UIntBE UIntLE Uint16BE Uint16LE Uint32BE Uint32LE"
            " Uint8 UintBE UintLE"
        ).split()
    )
    + " compare copy equals swap16 swap32 swap64 toJSON write"
)
NODE_TYPES: dict[tuple[str, str], frozenset[str]] = {
    ("http", "IncomingMessage"): frozenset(
        f"{_INCOMING} {_READABLE}".split() + list(JS_BASES["EventEmitter"])
    ),
    ("http", "RequestOptions"): frozenset(_HTTP_REQUEST.split()),
    ("http", "ClientRequestArgs"): frozenset(_HTTP_REQUEST.split()),
    ("https", "RequestOptions"): frozenset(_HTTPS_REQUEST.split()),
    ("tls", "SecureContextOptions"): frozenset(_TLS_CONTEXT.split()),
    ("url", "URL"): frozenset(_URL.split()),
    ("tls", "ConnectionOptions"): frozenset(
        f"{_TLS_CONTEXT} ALPNProtocols SNICallback checkServerIdentity enableTrace host lookup"
        " minDHSize path port pskCallback rejectUnauthorized requestCert requestOCSP"
        " secureContext servername session socket timeout".split()
    ),
    ("stream", "Readable"): frozenset(_STREAM_READABLE.split()),
    ("stream", "Writable"): frozenset(_STREAM_WRITABLE.split()),
    ("stream", "Duplex"): frozenset(f"{_STREAM_READABLE} {_STREAM_WRITABLE} allowHalfOpen".split()),
    # Global in @types/node (and `import { Buffer } from 'buffer'`): a body a product's
    # option takes beside its own objects (`body?: string | Buffer | FormData`).
    ("buffer", "Buffer"): frozenset(f"{_UINT8_ARRAY} {_BUFFER}".split()),
}


def global_base(table: FileTable, name: str) -> bool:
    """Whether a class's ``extends name`` means the JavaScript built-in (``Error``,
    ``EventTarget``): a base is a value, and the file binds no value of that name (a
    local type or interface of that name, got's ``type Error = NodeJS.ErrnoException``,
    names no value)."""
    if name not in JS_BASES or name == "EventEmitter":  # Node's module's, no global
        return False
    if name in table.imports or name in table.classes:
        return False
    return table.locals.get(name) in (None, "type", "interface")
