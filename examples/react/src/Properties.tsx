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
    let current = true;
    setProduct(null);
    if (objectId) {
      viewer.current?.getProducts([objectId], { attributes: true })
        .then(([found]) => current && setProduct(found ?? null), () => undefined);
    }
    return () => { current = false; };
  }, [viewer, objectId]);

  if (!product) return <aside id="properties" data-state="empty">Select an object in 3D.</aside>;
  return (
    <aside id="properties" data-state="shown" data-object-id={product.objectId}>
      <h3 data-field="name">{product.name}</h3>
      <dl>
        <dt>Type</dt><dd data-field="type">{product.type}</dd>
        <dt>GlobalId</dt><dd data-field="globalId">{product.globalId}</dd>
      </dl>
      <table>
        <tbody>
          {Object.entries(product.attributes ?? {}).map(([name, attribute]) => (
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
