// Used by test/infra.test.ts to prove that vite transforms TypeScript (type annotations,
// an enum, a parameter property) when a test imports a module dynamically.
export enum Probe {
  Ok = 'ts-probe-ok',
}

export class Greeter {
  constructor(private readonly name: string) {}
  greet(): string {
    return `hello ${this.name}`;
  }
}

export function probe(): Probe {
  const value: Probe = Probe.Ok;
  return value;
}
