// web-test-runner server command `worker-heap`: the JavaScript heap of the page's workers,
// after a garbage collection, read over the Chrome DevTools Protocol (a worker has no
// performance.memory). payload: { prefix } (the start of the workers' names, e.g. 'bim-ifc');
// result: { workers: [{ name, usedBytes }] }. Chromium only (the tests' browser).

/** Sends one DevTools message to a target attached without flattening, and waits for its answer. */
function call(cdp, sessionId, method, params = {}) {
  const id = Math.floor(Math.random() * 1e9);
  return new Promise((resolve, reject) => {
    const listen = (event) => {
      if (event.sessionId !== sessionId) return;
      const message = JSON.parse(event.message);
      if (message.id !== id) return;
      cdp.off('Target.receivedMessageFromTarget', listen);
      if (message.error) reject(new Error(`${method}: ${message.error.message}`));
      else resolve(message.result);
    };
    cdp.on('Target.receivedMessageFromTarget', listen);
    cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
  });
}

export function workerHeapPlugin() {
  return {
    name: 'worker-heap',
    async executeCommand({ command, payload, session }) {
      if (command !== 'worker-heap') return undefined;
      const page = session.browser.getPage(session.id);
      const cdp = await page.context().browser().newBrowserCDPSession();
      try {
        const { targetInfos } = await cdp.send('Target.getTargets');
        const workers = [];
        for (const target of targetInfos) {
          if (target.type !== 'worker' || !target.title.startsWith(payload.prefix)) continue;
          const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
          await call(cdp, sessionId, 'HeapProfiler.collectGarbage');
          const usage = await call(cdp, sessionId, 'Runtime.getHeapUsage');
          await cdp.send('Target.detachFromTarget', { sessionId });
          workers.push({ name: target.title, usedBytes: usage.usedSize });
        }
        return { workers };
      } finally {
        await cdp.detach();
      }
    },
  };
}
