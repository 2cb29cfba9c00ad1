import {
  ApplicationRef,
  EnvironmentInjector,
  Injector,
  createEnvironmentInjector,
  signal,
} from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { reading } from './reading';

/** A loader whose answers the test gives, one promise per call. */
function answers<T>() {
  const calls: {
    params: unknown;
    resolve: (value: T) => void;
    reject: (error: unknown) => void;
  }[] = [];
  const loader = ({ params }: { params: unknown }) =>
    new Promise<T>((resolve, reject) => calls.push({ params, resolve, reject }));
  return { calls, loader };
}

const settle = async () => {
  await Promise.resolve();
  await Promise.resolve();
  TestBed.tick();
};

describe('reading', () => {
  const make = <T>(options: Parameters<typeof reading<string, T>>[0]) =>
    reading<string, T>({ ...options, injector: TestBed.inject(Injector) });

  it('reads for its params, and again when they change; an answer for older params is dropped', async () => {
    const params = signal<string | undefined>('a');
    const { calls, loader } = answers<string>();
    const read = make({ params, loader });
    TestBed.tick();
    expect(calls.map((c) => c.params)).toEqual(['a']);
    expect(read.isLoading()).toBe(true);
    params.set('b');
    TestBed.tick();
    expect(calls.map((c) => c.params)).toEqual(['a', 'b']);
    calls[1]!.resolve('for b');
    await settle();
    calls[0]!.resolve('for a');
    await settle();
    expect(read.value()).toBe('for b');
    expect(read.hasValue()).toBe(true);
    expect(read.isLoading()).toBe(false);
  });

  it('keeps the answer shown while it reads again, and drops it for new params', async () => {
    const params = signal<string | undefined>('a');
    const { calls, loader } = answers<string>();
    const read = make({ params, loader });
    TestBed.tick();
    calls[0]!.resolve('first');
    await settle();
    read.reload();
    TestBed.tick();
    expect(calls.length).toBe(2);
    expect(read.isLoading()).toBe(true);
    expect(read.value()).toBe('first');
    calls[1]!.resolve('second');
    await settle();
    expect(read.value()).toBe('second');
    params.set('b');
    TestBed.tick();
    expect(read.hasValue()).toBe(false);
  });

  it('says what failed, with no value; undefined params hold it idle', async () => {
    const params = signal<string | undefined>('a');
    const { calls, loader } = answers<string>();
    const read = make({ params, loader });
    TestBed.tick();
    calls[0]!.reject(new Error('down'));
    await settle();
    expect((read.error() as Error).message).toBe('down');
    expect(read.hasValue()).toBe(false);
    params.set(undefined);
    TestBed.tick();
    expect(read.error()).toBeUndefined();
    expect(read.isLoading()).toBe(false);
    read.reload();
    TestBed.tick();
    expect(calls.length).toBe(1);
  });

  it('keeps the application unstable while a read is on its way', async () => {
    const { calls, loader } = answers<string>();
    make({ loader });
    TestBed.tick();
    let stable = false;
    void TestBed.inject(ApplicationRef)
      .whenStable()
      .then(() => (stable = true));
    await settle();
    expect(stable).toBe(false);
    calls[0]!.resolve('done');
    await settle();
    await TestBed.inject(ApplicationRef).whenStable();
  });

  it('drops an answer that comes after its component is gone', async () => {
    const { calls, loader } = answers<string>();
    const scope = TestBed.inject(EnvironmentInjector);
    const child = createEnvironmentInjector([], scope);
    const read = reading<string, string>({ loader, injector: child });
    TestBed.tick();
    child.destroy();
    calls[0]!.resolve('late');
    await settle();
    expect(read.hasValue()).toBe(false);
  });
});
