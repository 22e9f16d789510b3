ecsprof tasks --cluster prod --region us-east-1 --format csv --endpoint-url https://AKID:s3cr3t@127.0.0.1:1/
