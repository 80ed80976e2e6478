"""Gate 15 on the parameter of a callback handed where the product declares an interface
with a call signature (h3's ``defineEventHandler(handler: EventHandler | EventHandlerObject)``,
``interface EventHandler { (event: H3Event): R }``): the callback's parameter has the
signature's type, as TypeScript's contextual typing gives it, the object type beside it in
the union passed over; an interface with two call signatures types nothing."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

FILES = {
    "package.json": json.dumps({"name": "h3ish", "main": "./src/index.ts"}),
    "src/event.ts": (
        "export interface HReq { body?: any }\n"
        "export class H3Event<T extends HReq = HReq> {\n"
        "  respond(response: R): void {}\n"
        "  get path(): string { return '' }\n"
        "}\n"
    ),
    "src/types.ts": (
        "import type { H3Event, HReq } from './event'\n"
        "export type HRes<T = any> = T | Promise<T>\n"
        "export interface EventHandler<Q extends HReq = HReq, R extends HRes = HRes> {\n"
        "  __is_handler__?: true;\n"
        "  (event: H3Event<Q>): R;\n"
        "}\n"
        "export type EventHandlerObject<Q extends HReq = HReq, R extends HRes = HRes> = {\n"
        "  onQ?: ((event: H3Event<Q>) => void)[];\n"
        "  handler: EventHandler<Q, R>;\n"
        "};\n"
    ),
    "src/handler.ts": (
        "import type { EventHandler, EventHandlerObject, HRes } from './types'\n"
        "import type { HReq } from './event'\n"
        "export function defineEventHandler<Q extends HReq = HReq, R = HRes>(\n"
        "  handler: EventHandler<Q, R> | EventHandlerObject<Q, R>,\n"
        "): EventHandler<Q, R>;\n"
        "export function defineEventHandler<Q = HReq, R = HRes>(\n"
        "  handler: EventHandler<Q extends HReq ? Q : HReq, R>,\n"
        "): EventHandler<Q extends HReq ? Q : HReq, R>;\n"
        "export function defineEventHandler(handler: any): any { return handler }\n"
    ),
    "src/app.ts": (
        "import type { H3Event } from './event'\n"
        "export interface Middleware {\n"
        "  (event: H3Event): void;\n"
        "  (event: H3Event, next: () => void): void;\n"
        "}\n"
        "export class App { use(handler: Middleware): this { return this } }\n"
        "export function createApp(): App { return new App() }\n"
    ),
    "src/index.ts": (
        "export * from './event'\nexport * from './types'\nexport * from './handler'\n"
        "export * from './app'\n"
    ),
}


def test_a_callback_typed_by_an_interfaces_call_signature(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "h3ish", FILES)
    code = (
        "import { defineEventHandler, createApp } from 'h3ish'\n"
        "defineEventHandler(async (event) => {\n"
        "  await event.respondWith(new Response('x'))\n"
        "  event.respond(new Response('x'))\n"
        "  return event.path\n"
        "})\n"
        "createApp().use((event) => event.respondWith2())\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert sample_violations(card) == [("member", "event.respondWith")]
    assert unjudged_reasons(card) == [
        "event.respondWith2: event is a parameter of the callback handed to "
        "createApp().use(), whose type the sample does not show"
    ]
