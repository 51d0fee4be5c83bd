/** Every registration returns one; teardown runs them in reverse order. */
export type Disposer = () => void | Promise<void>;

export class DisposerStack {
  private readonly disposers: Disposer[] = [];

  add(disposer: Disposer): void {
    this.disposers.push(disposer);
  }

  async disposeAll(): Promise<void> {
    while (this.disposers.length > 0) {
      const dispose = this.disposers.pop()!;
      await dispose();
    }
  }
}
