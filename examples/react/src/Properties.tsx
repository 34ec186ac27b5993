import { useEffect, useState, type RefObject } from 'react';
import type { BimViewer3d, Product } from 'bim-viewers';

interface Props {
  viewer: RefObject<BimViewer3d | null>;
  objectId: string | undefined;
}

/** The selected product's name, type, GlobalId and attributes, read from the 3D viewer. */
export function Properties({ viewer, objectId }: Props) {
  const [product, setProduct] = useState<Product | null>(null);

  useEffect(() => {
    if (!objectId) return;
    let current = true;
    viewer.current?.getProducts([objectId], { attributes: true })
      .then(([found]) => current && setProduct(found ?? null), () => undefined); // the viewer reports failures itself
    return () => { current = false; };
  }, [viewer, objectId]);

  // Until the selected object's product arrives, nothing (not the one selected before).
  const shown = product?.objectId === objectId ? product : null;
  if (!shown) return <aside id="properties" data-state="empty">Select an object in 3D.</aside>;
  return (
    <aside id="properties" data-state="shown" data-object-id={shown.objectId}>
      <h3 data-field="name">{shown.name}</h3>
      <dl>
        <dt>Type</dt><dd data-field="type">{shown.type}</dd>
        <dt>GlobalId</dt><dd data-field="globalId">{shown.globalId}</dd>
      </dl>
      <table>
        <tbody>
          {Object.entries(shown.attributes ?? {}).map(([name, attribute]) => (
            <tr key={name}><th>{name}</th><td>{text(attribute.value)}</td></tr>
          ))}
        </tbody>
      </table>
    </aside>
  );
}

function text(value: unknown): string {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value ?? '');
}
