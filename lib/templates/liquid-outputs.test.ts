import { Liquid } from "liquidjs";
import { describe, expect, it } from "vitest";
import { speedUpOutputs } from "./liquid-outputs";

const scope = {
  user: {
    email: "a@example.com",
    data: {
      first_name: "Ada",
      plan: "pro",
      features: ["journeys", "broadcasts", "lists"],
      empty: [],
      count: 3,
      nested: { deep: { value: "<b>x</b>" } },
      flag: false,
      zero: 0,
      blank: "",
    },
    identifiers: [{ source: "crm", external_id: "42" }],
  },
  unsubscribe_url: "https://relay.test/u/abc",
};

const templates = [
  "Hi {{ user.data.first_name }}, {{ user.data.missing }}|{{ user.missing.deeper }}",
  "{{ user.data.first_name | default: 'there' }} {{ user.data.missing | default: 'there' }} {{ user.data.blank | default: 'b' }}",
  "{{ user.data.plan | upcase | append: '!' }} {{ user.data.plan | append: user.email }} {{ user.data.count | plus: 2 }}",
  "{{ user.data.features.size }} {{ user.data.features.first }} {{ user.data.features.last }} {{ user.data.features[1] }} {{ user.data['plan'] }}",
  "{{ user.data.features | join: ', ' }} {{ user.data.features }} {{ user.data.nested }} {{ user.data.nested.deep.value }}",
  "{% for f in user.data.features %}{{ forloop.index }}:{{ f }}{% unless forloop.last %}, {% endunless %}{% endfor %}",
  "{% for f in user.data.empty %}x{% else %}none{% endfor %}{% for f in user.data.features limit: 2 reversed %}{{ f }}{% endfor %}",
  "{% if user.data.flag %}yes{% elsif user.data.zero %}zero{% else %}no{% endif %}{% if user.data.plan == 'pro' %}P{% endif %}",
  "{% unless user.data.missing %}m{% endunless %}{% if user.data.features contains 'lists' %}L{% endif %}",
  "{{ user.constructor }}|{{ user.__proto__ }}|{{ user.data.features.constructor }}|{{ user.data.plan.length }}",
  "{% assign n = user.data.first_name | downcase %}{{ n }}{% capture c %}{{ n }}-{{ user.data.plan }}{% endcapture %}{{ c }}",
  "{{ 'lit' }} {{ 3 }} {{ true }} {{ nil }} {{ empty }} {{ (1..3) | join: '-' }} {{ user.data[user.data.plan] }}",
  "{% case user.data.plan %}{% when 'pro' %}{{ user.data.plan | capitalize }}{% else %}other{% endcase %}",
  "{{ user.data.nested.deep.value | raw }} {{ user.data.nested.deep.value }} {{ user.data.nested.deep.value | escape }}",
  "{% for i in user.identifiers %}{{ i.source }}={{ i.external_id }}{% endfor %} {{ unsubscribe_url }}",
  "{{ user.data.flag | default: 'd', allow_false: true }} {{ user.data.first_name | truncate: 2, '…' }} {{ user.data.plan | replace: 'p', user.data.first_name }}",
];

describe("simple outputs rendered without liquidjs's generators", () => {
  for (const html of [false, true]) {
    const options = {
      ownPropertyOnly: true,
      strictFilters: true,
      memoryLimit: 10_000_000,
      ...(html ? { outputEscape: "escape" as const } : {}),
    };
    it(`render exactly as liquidjs does${html ? " with HTML escaping" : ""}`, () => {
      const plain = new Liquid(options);
      const fast = new Liquid(options);
      let sped = 0;
      for (const source of templates) {
        const expected = plain.parseAndRenderSync(source, scope);
        const parsed = speedUpOutputs(fast.parse(source), fast);
        sped += parsed.filter((t) => Object.hasOwn(t, "render")).length;
        expect(fast.renderSync(parsed, scope), source).toBe(expected);
      }
      expect(sped).toBeGreaterThan(30);
    });
  }

  it("still counts memory in filters and names the output that failed", () => {
    const fast = new Liquid({ memoryLimit: 1_000 });
    const big = { s: "x".repeat(600) };
    expect(() => fast.renderSync(speedUpOutputs(fast.parse("{{ s | append: s }}"), fast), big)).toThrow(
      /memory alloc limit exceeded/,
    );
    const boom = {
      s: {
        get boom(): string {
          throw new Error("kaboom");
        },
      },
    };
    expect(() => fast.renderSync(speedUpOutputs(fast.parse("one\n  {{ s.boom }}"), fast), boom)).toThrow(
      /kaboom, line:2, col:3/,
    );
  });
});
